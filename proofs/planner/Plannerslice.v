(** * The slice phase reaches [L = gcd(|t|, |o|)] on a mesh of prime axes.

    [greedy_slices] passes once over every pair (dimension, axis).  What a
    pair needs (a free axis, a divisible extent, an excess over the other
    side, an excess over [L]) only gets harder as slicing goes on, so at the
    end no pair qualifies.  If the local size were still above [L], a prime
    [p] of the excess would give both a dimension with excess [p] over the
    other side and a free axis of size [p] (counting the product of free
    axis sizes on both sides): a qualifying pair, a contradiction. *)

From Coq Require Import List Arith Lia Bool Permutation.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Planner Plannerarith.
From Redist Require Import Semanticsproof Trafficproof Checkerproof Plannerproof Plannerflat.

Section Slices.
Variable m : mesh.
Hypothesis Hm : mesh_wf m = true.

Definition guard (o : ty) (goal : nat) (t : ty) (d : nat) (x : axis) : bool :=
  let sz := axis_size m x in
  (1 <? sz) && (d <? length t) && memb x (mesh_axes m) && negb (memb x (ty_axes t))
  && (ext m t d mod sz =? 0)
  && (surplus (ext m t d) (ext m o d) mod sz =? 0)
  && ((local_size m t / goal) mod sz =? 0).

Lemma greedy_cons : forall o goal t d x ps,
  greedy_slices m o goal t ((d, x) :: ps) =
  if guard o goal t d x then (d, x) :: greedy_slices m o goal (slice_type t d x) ps
  else greedy_slices m o goal t ps.
Proof. reflexivity. Qed.

Lemma guard_spec : forall o goal t d x, guard o goal t d x = true ->
  1 < axis_size m x /\ d < length t /\ In x (mesh_axes m) /\ ~ In x (ty_axes t)
  /\ Nat.divide (axis_size m x) (ext m t d)
  /\ Nat.divide (axis_size m x) (surplus (ext m t d) (ext m o d))
  /\ Nat.divide (axis_size m x) (local_size m t / goal).
Proof.
  intros o goal t d x H. unfold guard in H.
  rewrite !andb_true_iff, negb_true_iff, Nat.ltb_lt, Nat.ltb_lt, !Nat.eqb_eq, memb_In,
    memb_false_notIn in H.
  destruct H as [[[[[[H1 H2] H3] H4] H5] H6] H7].
  repeat split; auto; apply Nat.mod_divide; try lia; assumption.
Qed.

Lemma guard_intro : forall o goal t d x,
  1 < axis_size m x -> d < length t -> In x (mesh_axes m) -> ~ In x (ty_axes t) ->
  Nat.divide (axis_size m x) (ext m t d) ->
  Nat.divide (axis_size m x) (surplus (ext m t d) (ext m o d)) ->
  Nat.divide (axis_size m x) (local_size m t / goal) ->
  guard o goal t d x = true.
Proof.
  intros o goal t d x H1 H2 H3 H4 H5 H6 H7. unfold guard.
  rewrite !andb_true_iff, negb_true_iff, Nat.ltb_lt, Nat.ltb_lt, !Nat.eqb_eq, memb_In,
    memb_false_notIn.
  repeat split; auto; apply Nat.mod_divide; try lia; assumption.
Qed.

(** ** One slice *)

Lemma slice_facts : forall o goal t d x, ty_wf m t = true -> guard o goal t d x = true ->
  let t' := slice_type t d x in
  step_type m t (DynSlice d x) = OK t'
  /\ ty_wf m t' = true /\ global_shape t' = global_shape t /\ length t' = length t
  /\ ext m t' d * axis_size m x = ext m t d
  /\ (forall e, e <> d -> ext m t' e = ext m t e)
  /\ local_size m t' * axis_size m x = local_size m t
  /\ In x (ty_axes t') /\ (forall y, In y (ty_axes t) -> In y (ty_axes t')).
Proof.
  intros o goal t d x Ht Hgd t'.
  destruct (guard_spec o goal t d x Hgd) as [Hsz [Hd [Hx [Hfree [Hdiv _]]]]].
  pose proof (nth_dim_of t d Hd) as Hnth.
  destruct (dim_of t d) as [xs n] eqn:Hds. try rewrite Hds in Hnth.
  assert (Hstep : step_type m t (DynSlice d x) = OK t').
  { simpl. rewrite Hnth. rewrite (proj2 (memb_In _ _) Hx), (proj2 (memb_false_notIn _ _) Hfree).
    simpl. unfold ext in Hdiv. rewrite Hds in Hdiv.
    apply Nat.mod_divide in Hdiv; [| lia]. rewrite Hdiv. simpl.
    unfold t', slice_type. rewrite Hds. reflexivity. }
  destruct (step_type_wf m t _ t' Hm Ht Hstep) as [Ht' Hgs].
  assert (Hl : length t' = length t) by (unfold t', slice_type, set_dim; apply length_upd).
  assert (Hdw : dim_wf m (xs, n) = true) by (apply (ty_wf_nth_error m t d); assumption).
  assert (Hmod : extent m (xs, n) mod axis_size m x = 0).
  { apply Nat.mod_divide; [lia |]. unfold ext in Hdiv. rewrite Hds in Hdiv. exact Hdiv. }
  destruct (dim_wf_snoc m xs x n Hm Hdw Hx Hmod) as [_ Hext].
  assert (Hdt' : dim_of t' d = (xs ++ [x], n)).
  { unfold t', slice_type, set_dim. rewrite Hds. simpl. unfold dim_of. apply nth_upd_same. exact Hd. }
  assert (Hed : ext m t' d * axis_size m x = ext m t d).
  { unfold ext. rewrite Hdt', Hds. symmetry. exact Hext. }
  assert (Heo : forall e, e <> d -> ext m t' e = ext m t e).
  { intros e He. unfold ext, t', slice_type, set_dim. unfold dim_of at 1.
    rewrite nth_upd_other by congruence. reflexivity. }
  destruct (ty_axes_upd t d (xs, n) (xs ++ [x], n) Hnth) as [A [B [E1 E2]]].
  repeat split; auto.
  - pose proof (local_size_set_dim m t d (xs ++ [x], n) Hd) as E.
    unfold t', slice_type. rewrite Hds. rewrite Hds in E. simpl.
    pose proof (ext_pos m t d Hm Ht Hd) as Hp. unfold ext in Hp. rewrite Hds in Hp.
    unfold dimty, axis in *. rewrite Hext in E, Hp.
    assert (0 < extent m (xs ++ [x], n)) by nia. nia.
  - unfold t', slice_type, set_dim. rewrite Hds. simpl. rewrite E2. simpl.
    apply in_or_app. right. apply in_or_app. left. apply in_or_app. right. left. reflexivity.
  - intros y Hy. unfold t', slice_type, set_dim. rewrite Hds. simpl. rewrite E2.
    rewrite E1 in Hy. simpl in Hy |- *. rewrite !in_app_iff in Hy |- *. destruct Hy as [H|[H|H]]; [left; exact H | right; left; apply in_or_app; left; exact H | right; right; exact H].
Qed.

(** ** Slicing only makes the guard harder to pass *)

Definition descends (t t' : ty) : Prop :=
  length t' = length t /\ (forall y, In y (ty_axes t) -> In y (ty_axes t'))
  /\ (forall d, Nat.divide (ext m t' d) (ext m t d))
  /\ Nat.divide (local_size m t') (local_size m t).

Lemma descends_refl : forall t, descends t t.
Proof. intros t. repeat split; auto; intros; apply Nat.divide_refl. Qed.

Lemma descends_trans : forall t1 t2 t3, descends t1 t2 -> descends t2 t3 -> descends t1 t3.
Proof.
  intros t1 t2 t3 [H1 [H2 [H3 H4]]] [G1 [G2 [G3 G4]]]. repeat split.
  - congruence.
  - auto.
  - intros d. eapply Nat.divide_trans; [apply G3 | apply H3].
  - eapply Nat.divide_trans; eassumption.
Qed.

Lemma surplus_divide_mono : forall q a b o, Nat.divide q (surplus a o) -> Nat.divide a b ->
  0 < a -> 0 < b -> Nat.divide q (surplus b o).
Proof.
  intros q a b o Hq [k Hk] Ha Hb. eapply Nat.divide_trans; [exact Hq |]. unfold surplus.
  destruct (gcd_parts a o Ha) as [Ea [Eo [_ Hc]]].
  set (c := Nat.gcd a o) in *. set (A := a / c) in *.
  assert (Hg : Nat.divide (Nat.gcd b o) (c * k)).
  { replace (c * k) with (Nat.gcd a o * k) by reflexivity.
    rewrite <- Nat.gcd_mul_mono_r. apply Nat.gcd_greatest.
    - rewrite Hk. rewrite Nat.mul_comm. apply Nat.gcd_divide_l.
    - eapply Nat.divide_trans; [apply Nat.gcd_divide_r |]. exists k. ring. }
  destruct Hg as [w Hw].
  assert (Hgb : 0 < Nat.gcd b o) by (apply gcd_pos; exact Hb).
  assert (E : b = (w * A) * Nat.gcd b o) by (rewrite Hk at 1; rewrite Ea at 1; nia).
  exists w. rewrite E at 1. rewrite Nat.div_mul by lia. ring.
Qed.

Lemma guard_mono : forall o goal t t' d x, 0 < goal -> ty_wf m t = true ->
  descends t t' -> Nat.divide goal (local_size m t') -> 0 < local_size m t' ->
  guard o goal t' d x = true -> guard o goal t d x = true.
Proof.
  intros o goal t t' d x Hgoal Ht [Hl [Hax [Hext Hsz]]] Hgt' Hpos' Hgd.
  destruct (guard_spec o goal t' d x Hgd) as [H1 [H2 [H3 [H4 [H5 [H6 H7]]]]]].
  assert (Hd : d < length t) by lia.
  apply guard_intro; auto.
  - eapply Nat.divide_trans; [exact H5 | apply Hext].
  - apply (surplus_divide_mono _ (ext m t' d)); auto.
    + pose proof (ext_pos m t d Hm Ht Hd). destruct (Hext d) as [z Hz].
      destruct (ext m t' d); [lia | lia].
    + apply ext_pos; auto.
  - destruct Hgt' as [a Ha]. destruct Hsz as [b Hb]. destruct H7 as [c Hc].
    rewrite Ha, Nat.div_mul in Hc by lia. rewrite Hb, Ha.
    exists (b * c). rewrite Hc. replace (b * (c * axis_size m x * goal)) with ((b * c * axis_size m x) * goal) by ring.
    rewrite Nat.div_mul by lia. ring.
Qed.

Lemma local_size_pos : forall t, ty_wf m t = true -> 0 < local_size m t.
Proof.
  intros t Ht. rewrite local_size_pseq. apply pseq_pos. intros d Hd. apply ext_pos; auto.
Qed.

Lemma greedy_spec : forall o goal prefs t, ty_wf m t = true -> 0 < goal ->
  Nat.divide goal (local_size m t) ->
  let ps := greedy_slices m o goal t prefs in
  let te := apply_slices t ps in
  run_type m t (slices_of ps) = Some te /\ forallb is_slice (slices_of ps) = true
  /\ ty_wf m te = true /\ global_shape te = global_shape t /\ descends t te
  /\ Nat.divide goal (local_size m te)
  /\ (forall d x, In (d, x) prefs -> guard o goal te d x = false)
  /\ (forall u, In u (trace m t (slices_of ps)) -> local_size m u <= local_size m t).
Proof.
  intros o goal prefs. induction prefs as [|[d x] prefs IH]; intros t Ht Hgoal Hdiv ps te.
  - unfold te, ps. simpl. split; [reflexivity |]. split; [reflexivity |]. split; [exact Ht |].
    split; [reflexivity |]. split; [apply descends_refl |]. split; [exact Hdiv |].
    split; [intros _ _ [] |]. intros u [<- | []]. lia.
  - unfold te, ps. rewrite greedy_cons. destruct (guard o goal t d x) eqn:Hgd.
    + destruct (slice_facts o goal t d x Ht Hgd)
        as [Hstep [Ht' [Hgs' [Hl' [Hed [Heo [Hsz [Hin Hsub]]]]]]]].
      set (t' := slice_type t d x) in *.
      destruct (guard_spec o goal t d x Hgd) as [Hq [_ [_ [_ [_ [_ Hqs]]]]]].
      assert (Hdiv' : Nat.divide goal (local_size m t')).
      { destruct Hdiv as [a Ha]. destruct Hqs as [b Hb]. rewrite Ha, Nat.div_mul in Hb by lia.
        exists b. apply (Nat.mul_cancel_r _ _ (axis_size m x)); [lia |]. rewrite Hsz, Ha, Hb. ring. }
      destruct (IH t' Ht' Hgoal Hdiv') as [Hrun [Hsl [Hte [Hgs [Hdesc [Hdv [Hng Htr]]]]]]].
      simpl slices_of. simpl apply_slices. fold t'.
      assert (Hd1 : descends t t').
      { split; [exact Hl' |]. split; [exact Hsub |]. split.
        - intros e. destruct (Nat.eq_dec e d) as [-> | Hne].
          + exists (axis_size m x). lia.
          + rewrite Heo by exact Hne. apply Nat.divide_refl.
        - exists (axis_size m x). lia. }
      pose proof (local_size_pos t' Ht').
      split; [cbn [run_type]; rewrite Hstep; exact Hrun |].
      split; [exact Hsl |]. split; [exact Hte |]. split; [congruence |].
      split; [eapply descends_trans; eassumption |]. split; [exact Hdv |].
      split.
      * intros d' x' [E | Hin'].
        -- inversion E; subst d' x'. unfold guard.
           destruct Hdesc as [_ [Hax _]].
           rewrite (proj2 (memb_In _ _) (Hax x Hin)). simpl. rewrite !andb_false_r. reflexivity.
        -- apply Hng, Hin'.
      * intros u Hu. cbn [trace] in Hu. rewrite Hstep in Hu. destruct Hu as [<- | Hu]; [lia |].
        pose proof (Htr u Hu). nia.
    + destruct (IH t Ht Hgoal Hdiv) as [Hrun [Hsl [Hte [Hgs [Hdesc [Hdv [Hng Htr]]]]]]].
      split; [exact Hrun |]. split; [exact Hsl |]. split; [exact Hte |]. split; [exact Hgs |].
      split; [exact Hdesc |]. split; [exact Hdv |]. split; [| exact Htr].
      intros d' x' [E | Hin'].
      * inversion E; subst d' x'.
        destruct (guard o goal (apply_slices t (greedy_slices m o goal t prefs)) d x) eqn:Hg';
          [| reflexivity].
        rewrite (guard_mono o goal t _ d x Hgoal Ht Hdesc Hdv (local_size_pos _ Hte) Hg') in Hgd.
        discriminate.
      * apply Hng, Hin'.
Qed.

(** ** Free and used axes *)

Definition free_size (t : ty) : nat :=
  prod (map (axis_size m) (filter (fun x => negb (memb x (ty_axes t))) (mesh_axes m))).

Definition used_size (t : ty) : nat := prod (map (axis_size m) (ty_axes t)).

Lemma filter_partition_perm : forall (f : axis -> bool) (l : list axis),
  Permutation l (filter f l ++ filter (fun x => negb (f x)) l).
Proof.
  intros f l. induction l as [|x l IH]; simpl; [constructor |].
  destruct (f x); simpl.
  - constructor. exact IH.
  - apply Permutation_cons_app. exact IH.
Qed.

Lemma free_used : forall t, ty_wf m t = true -> free_size t * used_size t = mesh_size m.
Proof.
  intros t Ht. rewrite (mesh_size_prod m Hm). unfold free_size, used_size.
  pose proof (mesh_wf_NoDup m Hm) as Hnd.
  assert (Hp1 : Permutation (ty_axes t) (filter (fun x => memb x (ty_axes t)) (mesh_axes m))).
  { apply NoDup_Permutation; [apply ty_wf_NoDup with (m := m); exact Ht | apply NoDup_filter, Hnd |].
    intros x. rewrite filter_In, memb_In. split; [| tauto]. intros Hx. split; [| exact Hx].
    eapply ty_wf_axes_in_mesh; eassumption. }
  rewrite (prod_perm (map (axis_size m) (mesh_axes m))
             (map (axis_size m) (filter (fun x => memb x (ty_axes t)) (mesh_axes m)
                                 ++ filter (fun x => negb (memb x (ty_axes t))) (mesh_axes m))))
    by (apply Permutation_map, filter_partition_perm).
  rewrite map_app, prod_app, (prod_perm _ _ (Permutation_map (axis_size m) Hp1)). apply Nat.mul_comm.
Qed.

Lemma ty_wf_tail : forall d t, ty_wf m (d :: t) = true -> ty_wf m t = true /\ dim_wf m d = true.
Proof.
  intros d t H. apply ty_wf_iff in H. destruct H as [Hall Hnd]. simpl in Hall.
  apply andb_true_iff in Hall. destruct Hall as [Hd Hall]. split; [| exact Hd].
  apply ty_wf_iff. split; [exact Hall |]. unfold ty_axes in Hnd. simpl in Hnd.
  apply NoDup_app_inv in Hnd. tauto.
Qed.

Lemma used_local : forall t, ty_wf m t = true ->
  used_size t * local_size m t = prod (global_shape t).
Proof.
  induction t as [|[xs n] t IH]; intros Ht; [reflexivity |].
  destruct (ty_wf_tail _ _ Ht) as [Ht' Hd].
  destruct (dim_extent m xs n Hm Hd) as [E _].
  unfold used_size in *. unfold ty_axes. simpl. fold (ty_axes t).
  rewrite map_app, prod_app. unfold local_size, local_shape in *. simpl.
  specialize (IH Ht'). unfold global_shape in *. simpl. rewrite <- IH. nia.
Qed.

Lemma global_pos : forall t, ty_wf m t = true -> 0 < prod (global_shape t).
Proof.
  intros t Ht. rewrite <- (used_local t Ht). pose proof (local_size_pos t Ht).
  assert (1 <= used_size t).
  { apply shards_pos; [exact Hm |]. intros x Hx. eapply ty_wf_axes_in_mesh; eassumption. }
  nia.
Qed.

Hypothesis Hatoms : atoms_prime m.

(** ** Slicing reaches the gcd *)

Theorem slices_reach_gcd : forall t0 o, ty_wf m t0 = true -> ty_wf m o = true ->
  global_shape t0 = global_shape o ->
  let L := Nat.gcd (local_size m t0) (local_size m o) in
  local_size m (apply_slices t0 (greedy_slices m o L t0 (slice_prefs m t0 o))) = L.
Proof.
  intros t0 o Ht0 Ho Hgs L.
  pose proof (local_size_pos t0 Ht0) as Hs0. pose proof (local_size_pos o Ho) as Hso.
  assert (HL : 0 < L) by (apply gcd_pos; exact Hs0).
  destruct (greedy_spec o L (slice_prefs m t0 o) t0 Ht0 HL (Nat.gcd_divide_l _ _))
    as [_ [_ [Hte [Hgte [Hdesc [Hdv [Hng _]]]]]]].
  set (te := apply_slices t0 (greedy_slices m o L t0 (slice_prefs m t0 o))) in *.
  pose proof (local_size_pos te Hte) as Hste.
  destruct Hdv as [k Hk].
  destruct Hdesc as [Hlen [_ [_ Hsub]]].
  (* the gcd of the two sides' local sizes divides L *)
  assert (HgL : Nat.divide (Nat.gcd (local_size m te) (local_size m o)) L).
  { apply Nat.gcd_greatest.
    - eapply Nat.divide_trans; [apply Nat.gcd_divide_l | exact Hsub].
    - apply Nat.gcd_divide_r. }
  destruct (Nat.lt_total k 1) as [Hk0 | [Hk1 | Hk2]].
  - exfalso. assert (k = 0) by lia. subst k. lia.
  - subst k. lia.
  - exfalso.
    destruct (prime_divisor_exists k Hk2) as [p [Hp Hpk]].
    assert (Hr : length te = length o)
      by (rewrite Hlen; apply global_length; exact Hgs).
    set (r := length te) in *.
    set (n := ext m te). set (oo := ext m o).
    assert (Hn : forall d, d < r -> 0 < n d) by (intros; apply ext_pos; assumption).
    set (C := fun d => Nat.gcd (n d) (oo d)).
    set (A := fun d => n d / C d). set (B := fun d => oo d / C d).
    assert (Hparts : forall d, d < r -> n d = C d * A d /\ oo d = C d * B d
                                 /\ Nat.gcd (A d) (B d) = 1 /\ 0 < C d)
      by (intros d Hd; apply gcd_parts, Hn, Hd).
    assert (E1 : local_size m te = pseq C r * pseq A r).
    { rewrite local_size_pseq, <- pseq_mul. apply pseq_ext. intros d Hd. apply Hparts, Hd. }
    assert (E2 : local_size m o = pseq C r * pseq B r).
    { rewrite local_size_pseq, <- Hr, <- pseq_mul. apply pseq_ext. intros d Hd. apply Hparts, Hd. }
    assert (HCpos : 0 < pseq C r) by (apply pseq_pos; intros d Hd; apply Hparts, Hd).
    (* a dimension with [p] more than the other side *)
    assert (HC : Nat.divide (pseq C r) L).
    { eapply Nat.divide_trans; [| exact HgL]. apply Nat.gcd_greatest.
      - rewrite E1. exists (pseq A r). ring.
      - rewrite E2. exists (pseq B r). ring. }
    destruct HC as [l Hl].
    assert (HA : pseq A r = l * k).
    { apply (Nat.mul_cancel_l _ _ (pseq C r)); [lia |]. rewrite <- E1, Hk, Hl. ring. }
    assert (HpA : Nat.divide p (pseq A r)) by (rewrite HA; apply Nat.divide_mul_r, Hpk).
    destruct (pseq_prime p A r Hp HpA) as [d [Hd HpAd]].
    (* a free axis of size [p] *)
    set (j := local_size m o / L).
    assert (Hj : local_size m o = j * L).
    { unfold j. rewrite Nat.mul_comm. apply Nat.div_exact; [lia |].
      apply Nat.mod_divide; [lia | apply Nat.gcd_divide_r]. }
    assert (Hkj : Nat.gcd k j = 1).
    { assert (Hg : Nat.gcd (local_size m te) (local_size m o) = L * Nat.gcd k j).
      { rewrite Hk, Hj, (Nat.mul_comm k L), (Nat.mul_comm j L). apply Nat.gcd_mul_mono_l. }
      rewrite Hg in HgL. destruct HgL as [z Hz].
      assert (z * Nat.gcd k j = 1) by (apply (Nat.mul_cancel_l _ _ L); [lia | nia]).
      apply Nat.eq_mul_1 in H. tauto. }
    assert (HFr : free_size te * j = free_size o * k).
    { pose proof (free_used te Hte) as F1. pose proof (free_used o Ho) as F2.
      pose proof (used_local te Hte) as U1. pose proof (used_local o Ho) as U2.
      rewrite Hgte, Hgs in U1.
      set (G := prod (global_shape o)) in *.
      assert (0 < G) by (apply global_pos; exact Ho).
      apply (Nat.mul_cancel_r _ _ G); [lia |].
      rewrite <- U1 at 1. rewrite <- U2. rewrite Hk in *. rewrite Hj.
      replace (free_size te * j * (used_size te * (k * L)))
        with ((free_size te * used_size te) * (j * k * L)) by ring.
      replace (free_size o * k * (used_size o * (j * L)))
        with ((free_size o * used_size o) * (j * k * L)) by ring.
      rewrite F1, F2. reflexivity. }
    assert (HpF : Nat.divide p (free_size te)).
    { assert (Nat.divide p (free_size te * j))
        by (rewrite HFr; apply Nat.divide_mul_r, Hpk).
      destruct (prime_divide_mul p _ _ Hp H) as [H1 | H1]; [exact H1 |].
      destruct Hp as [Hp1 _]. assert (Nat.divide p 1) by (rewrite <- Hkj; apply Nat.gcd_greatest; assumption).
      apply Nat.divide_1_r in H0. lia. }
    destruct (prime_divide_prod p _ Hp HpF) as [z [Hz Hpz]].
    apply in_map_iff in Hz. destruct Hz as [x [<- Hx]]. apply filter_In in Hx.
    destruct Hx as [Hxm Hxf]. rewrite negb_true_iff, memb_false_notIn in Hxf.
    assert (Hpx : axis_size m x = p).
    { destruct Hp as [Hp1 Hpd]. destruct (Hatoms x Hxm) as [E | [_ Hq]].
      - rewrite E in Hpz. apply Nat.divide_1_r in Hpz. lia.
      - destruct (Hq p Hpz); [lia | auto]. }
    assert (Hgd : guard o L te d x = true).
    { destruct (Hparts d Hd) as [Ed _].
      apply guard_intro; try rewrite Hpx.
      - destruct Hp. lia.
      - exact Hd.
      - exact Hxm.
      - exact Hxf.
      - eapply Nat.divide_trans; [exact HpAd |]. change (ext m te d) with (n d). rewrite Ed. exists (C d). ring.
      - exact HpAd.
      - rewrite Hk, Nat.div_mul by lia. exact Hpk. }
    assert (Hin : In (d, x) (slice_prefs m t0 o)).
    { unfold slice_prefs. apply in_or_app. right. apply in_flat_map. exists x.
      split; [exact Hxm |]. apply in_map_iff. exists d. split; [reflexivity |].
      apply in_seq. rewrite <- Hlen. fold r. lia. }
    rewrite (Hng d x Hin) in Hgd. discriminate.
Qed.

End Slices.
