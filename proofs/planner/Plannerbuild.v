(** * On a mesh of prime axes, the planner's construction is a valid
    normal-form plan from source to target whose local sizes never exceed
    [max(|src|, |tgt|)]. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Planner Plannerarith.
From Redist Require Import Semanticsproof Trafficproof Checkerproof Plannerproof Plannerflat Plannerslice.

(** ** Traces *)

Lemma trace_app : forall m t p1 p2 t1 u, run_type m t p1 = Some t1 ->
  In u (trace m t (p1 ++ p2)) -> In u (trace m t p1) \/ In u (trace m t1 p2).
Proof.
  intros m t p1. revert t. induction p1 as [|k p1 IH]; intros t p2 t1 u H Hu; simpl in *.
  - inversion H; subst. right. exact Hu.
  - destruct (step_type m t k) as [t'|]; [| discriminate].
    destruct Hu as [<- | Hu]; [left; left; reflexivity |].
    destruct (IH t' p2 t1 u H Hu); [left; right |]; auto.
Qed.

Lemma trace_prefix : forall m p t u, In u (trace m t p) ->
  exists p1 p2, p = p1 ++ p2 /\ run_type m t p1 = Some u.
Proof.
  intros m p. induction p as [|k p IH]; intros t u Hu; simpl in Hu.
  - destruct Hu as [<- | []]. exists [], []. auto.
  - destruct Hu as [<- | Hu]; [exists [], (k :: p); auto |].
    destruct (step_type m t k) as [t'|] eqn:Hk; [| destruct Hu].
    destruct (IH t' u Hu) as [p1 [p2 [-> Hr]]].
    exists (k :: p1), p2. simpl. rewrite Hk. auto.
Qed.

Lemma forallb_app_inv : forall A (f : A -> bool) l1 l2,
  forallb f (l1 ++ l2) = true -> forallb f l1 = true /\ forallb f l2 = true.
Proof. intros. rewrite forallb_app, andb_true_iff in H. exact H. Qed.

(** A type on the way through gathers is never larger than where they end. *)
Lemma gathers_trace_le : forall m q t tf u, mesh_wf m = true -> ty_wf m t = true ->
  forallb is_gather q = true -> run_type m t q = Some tf -> In u (trace m t q) ->
  local_size m u <= local_size m tf.
Proof.
  intros m q t tf u Hm Ht Hq Hr Hu.
  destruct (trace_prefix m q t u Hu) as [p1 [p2 [-> H1]]].
  rewrite run_type_app, H1 in Hr. apply forallb_app_inv in Hq.
  apply (gathers_grow m p2 u tf Hm); [eapply run_type_wf; eassumption | tauto | exact Hr].
Qed.

Lemma flats_trace_eq : forall m q t u, mesh_wf m = true -> ty_wf m t = true ->
  forallb is_flat q = true -> In u (trace m t q) -> local_size m u = local_size m t.
Proof.
  intros m q t u Hm Ht Hq Hu.
  destruct (trace_prefix m q t u Hu) as [p1 [p2 [-> H1]]]. apply forallb_app_inv in Hq.
  apply (flats_keep_size m p1 t u Hm Ht); [tauto | exact H1].
Qed.

(** ** Normal form of a concatenation *)

Lemma take_while_app : forall A (f : A -> bool) a l, forallb f a = true ->
  match l with [] => True | x :: _ => f x = false end ->
  take_while f (a ++ l) = (a, l).
Proof.
  intros A f a l Ha Hl. induction a as [|x a IH]; simpl in *.
  - destruct l as [|y l]; [reflexivity |]. simpl. rewrite Hl. reflexivity.
  - apply andb_true_iff in Ha. destruct Ha as [Hx Ha]. rewrite Hx, IH by exact Ha. reflexivity.
Qed.

Lemma normal_form_app : forall sl fl ga, forallb is_slice sl = true ->
  forallb is_flat fl = true -> forallb is_gather ga = true -> normal_form (sl ++ fl ++ ga) = true.
Proof.
  intros sl fl ga Hs Hf Hg. unfold normal_form, nf_split.
  rewrite (take_while_app _ is_slice sl (fl ++ ga) Hs).
  2:{ destruct fl as [|k fl]; simpl.
      - destruct ga as [|k ga]; [exact I |]. simpl in Hg. destruct k; try discriminate. reflexivity.
      - simpl in Hf. destruct k; try discriminate; reflexivity. }
  rewrite (take_while_app _ is_flat fl ga Hf).
  2:{ destruct ga as [|k ga]; [exact I |]. simpl in Hg. destruct k; try discriminate. reflexivity. }
  rewrite <- (app_nil_r ga). rewrite (take_while_app _ is_gather ga [] Hg I). reflexivity.
Qed.

(** ** Gathers undo slices *)

Lemma upd_nth_error_self : forall A (l : list A) i v, nth_error l i = Some v -> upd l i v = l.
Proof.
  intros A l. induction l as [|a l IH]; intros [|i] v H; simpl in *; try discriminate.
  - inversion H. reflexivity.
  - rewrite (IH i v H). reflexivity.
Qed.

Lemma gathers_undo : forall m ps t, run_type m t (slices_of ps) = Some (apply_slices t ps) ->
  run_type m (apply_slices t ps) (gathers_of ps) = Some t
  /\ forallb is_gather (gathers_of ps) = true.
Proof.
  intros m ps. induction ps as [|[d x] ps IH]; intros t H; [split; reflexivity |].
  simpl in H |- *. unfold gathers_of. simpl. fold (gathers_of ps).
  destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
  destruct (negb (memb x (mesh_axes m))); [discriminate |].
  destruct (memb x (ty_axes t)); [discriminate |].
  destruct (negb (extent m (xs, n) mod axis_size m x =? 0)); [discriminate |].
  assert (Hst : slice_type t d x = set_dim t d (xs ++ [x], n)).
  { unfold slice_type. rewrite (dim_of_nth_error t d _ Hd). reflexivity. }
  rewrite <- Hst in H. destruct (IH _ H) as [Hr Hg].
  rewrite run_type_app, Hr. split.
  - simpl. rewrite Hst. unfold set_dim.
    assert (Hlt : d < length t) by (eapply nth_error_lt; eassumption).
    rewrite nth_error_upd_same by exact Hlt. rewrite split_last_snoc.
    rewrite upd_upd_same. f_equal. apply upd_nth_error_self. exact Hd.
  - rewrite forallb_app, Hg. reflexivity.
Qed.

(** ** The construction *)

Theorem build_ok : forall m src tgt, atoms_prime m -> problem_wf m src tgt ->
  let p := build false m src tgt (Nat.gcd (local_size m src) (local_size m tgt)) in
  run_type m src p = Some tgt /\ normal_form p = true
  /\ trace_peak_ok m src p (Nat.max (local_size m src) (local_size m tgt)) = true.
Proof.
  intros m src tgt Hat [Hm [Hs [Ht Hgs]]] p.
  assert (HL : 0 < Nat.gcd (local_size m src) (local_size m tgt))
    by (apply gcd_pos, local_size_pos; assumption).
  destruct (greedy_spec m Hm tgt _ (slice_prefs m src tgt) src Hs HL (Nat.gcd_divide_l _ _))
    as [Hr1 [Hsl1 [Hw1 [Hg1 [_ [_ [_ Htr1]]]]]]].
  destruct (greedy_spec m Hm src _ (slice_prefs m tgt src) tgt Ht HL (Nat.gcd_divide_r _ _))
    as [Hr2 [Hsl2 [Hw2 [Hg2 [_ [_ [_ _]]]]]]].
  pose proof (slices_reach_gcd m Hm Hat src tgt Hs Ht Hgs) as HL1.
  pose proof (slices_reach_gcd m Hm Hat tgt src Ht Hs (eq_sym Hgs)) as HL2.
  cbv zeta in HL1, HL2. rewrite Nat.gcd_comm in HL2.
  pose proof (Nat.gcd_divide_l (local_size m src) (local_size m tgt)) as HLs.
  pose proof (Nat.divide_pos_le _ (local_size m src) ltac:(apply local_size_pos; assumption) HLs).
  set (L := Nat.gcd (local_size m src) (local_size m tgt)) in *.
  set (s1 := greedy_slices m tgt L src (slice_prefs m src tgt)) in *.
  set (s2 := greedy_slices m src L tgt (slice_prefs m tgt src)) in *.
  set (mid1 := apply_slices src s1) in *. set (mid2 := apply_slices tgt s2) in *.
  destruct (gathers_undo m s2 tgt Hr2) as [Hga Hgag].
  assert (Hi1 : flat_inv m mid2 mid1).
  { split; [exact Hw1 |]. split; [congruence |]. congruence. }
  pose proof (Psi_bounds m mid2 Hm mid1 Hi1) as [HP1 _].
  destruct (flat_steps_reach m mid2 Hm Hat Hw2 (local_size m mid1) mid1 Hi1 ltac:(lia))
    as [Hfl Hflf].
  assert (Hp : p = slices_of s1 ++ flat_steps false (local_size m mid1) m mid1 mid2 ++ gathers_of s2)
    by reflexivity.
  assert (Hrun : run_type m src p = Some tgt).
  { rewrite Hp, run_type_app, Hr1, run_type_app, Hfl. exact Hga. }
  split; [exact Hrun |]. split; [rewrite Hp; apply normal_form_app; assumption |].
  unfold trace_peak_ok. apply forallb_forall. intros u Hu. apply Nat.leb_le.
  rewrite Hp in Hu. apply (trace_app m src _ _ mid1 u Hr1) in Hu.
  destruct Hu as [Hu | Hu]; [pose proof (Htr1 u Hu); lia |].
  apply (trace_app m mid1 _ _ mid2 u Hfl) in Hu. destruct Hu as [Hu | Hu].
  - rewrite (flats_trace_eq m _ mid1 u Hm Hw1 Hflf Hu), HL1. lia.
  - pose proof (gathers_trace_le m _ mid2 tgt u Hm Hw2 Hgag Hga Hu). lia.
Qed.
