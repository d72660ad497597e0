(** * The full prime refinement: valid, and every resulting axis has size
    1 or a prime size. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Planner Plannerarith Plannerflat.

(** ** Least factors and prime factors *)

(** No divisor of [n] lies in [[2, d)]. *)
Definition no_small_divisor (n d : nat) : Prop :=
  forall e, 2 <= e -> e < d -> ~ Nat.divide e n.

Lemma prime_of_no_small : forall n d, 2 <= n -> no_small_divisor n d -> n < d * d -> prime n.
Proof.
  intros n d Hn Hno Hsq. split; [lia |]. intros e [k Hk].
  destruct (Nat.eq_dec e 1) as [| He1]; [left; assumption |]. right.
  assert (He0 : e <> 0) by (intros ->; lia).
  assert (Hk0 : k <> 0) by (intros ->; lia).
  destruct (Nat.lt_ge_cases e d) as [Hed | Hed].
  - exfalso. apply (Hno e); [lia | exact Hed | exists k; exact Hk].
  - destruct (Nat.eq_dec k 1) as [-> | Hk1]; [lia |].
    exfalso. apply (Hno k); [lia | nia | exists e; lia].
Qed.

Lemma least_factor_from_spec : forall fuel d n, 2 <= d -> 2 <= n -> no_small_divisor n d ->
  fuel + d = n + 2 ->
  let p := least_factor_from fuel d n in prime p /\ Nat.divide p n.
Proof.
  induction fuel as [|f IH]; intros d n Hd Hn Hno Hf p; unfold p; simpl.
  - split; [| apply Nat.divide_refl]. apply (prime_of_no_small n d Hn Hno). nia.
  - destruct (n <? d * d) eqn:Hsq.
    + apply Nat.ltb_lt in Hsq. split; [apply (prime_of_no_small n d); auto | apply Nat.divide_refl].
    + destruct (n mod d =? 0) eqn:Hm.
      * apply Nat.eqb_eq, Nat.mod_divide in Hm; [| lia]. split; [| exact Hm].
        split; [lia |]. intros e He. destruct (Nat.eq_dec e 1) as [| He1]; [left; assumption |].
        right. assert (He0 : e <> 0) by (intros ->; destruct He as [z Hz]; lia).
        assert (e <= d) by (apply Nat.divide_pos_le; [lia | exact He]).
        destruct (Nat.eq_dec e d) as [| Hne]; [assumption |].
        exfalso. apply (Hno e); [lia | lia | eapply Nat.divide_trans; eassumption].
      * apply IH; [lia | exact Hn | | lia].
        intros e He1 He2 Hdiv. destruct (Nat.eq_dec e d) as [-> | Hne].
        -- apply Nat.mod_divide in Hdiv; [| lia]. rewrite Hdiv in Hm. discriminate.
        -- apply (Hno e); [lia | lia | exact Hdiv].
Qed.

Lemma least_factor_spec : forall n, 2 <= n -> prime (least_factor n) /\ Nat.divide (least_factor n) n.
Proof.
  intros n Hn. apply least_factor_from_spec; [lia | exact Hn | | lia].
  intros e H1 H2. lia.
Qed.

Lemma prime_factors_fuel_spec : forall fuel n, 1 <= n -> n <= fuel ->
  prod (prime_factors_fuel fuel n) = n /\ Forall prime (prime_factors_fuel fuel n).
Proof.
  induction fuel as [|f IH]; intros n Hn Hf; [lia |]. simpl.
  destruct (n <=? 1) eqn:H1; [apply Nat.leb_le in H1; split; [simpl; lia | constructor] |].
  apply Nat.leb_gt in H1.
  destruct (least_factor_spec n ltac:(lia)) as [Hp [k Hk]].
  set (p := least_factor n) in *. destruct Hp as [Hp1 Hpd].
  assert (Hnp : n / p = k) by (rewrite Hk; apply Nat.div_mul; lia).
  rewrite Hnp. assert (1 <= k) by nia. assert (k <= f) by nia.
  destruct (IH k ltac:(lia) ltac:(lia)) as [Hprod Hall].
  split; [simpl; rewrite Hprod; lia | constructor; [split; assumption | exact Hall]].
Qed.

Lemma prime_factors_spec : forall n, 1 <= n ->
  prod (prime_factors n) = n /\ Forall prime (prime_factors n).
Proof. intros n Hn. apply prime_factors_fuel_spec; lia. Qed.

(** ** Refinements as lists of splits *)

Lemma refine_ok_app : forall rf1 rf2 m,
  refine_ok m (rf1 ++ rf2) = refine_ok m rf1 && refine_ok (refine_mesh rf1 m) rf2.
Proof.
  induction rf1 as [|sp rf1 IH]; intros rf2 m; simpl; [reflexivity |].
  rewrite IH. destruct (split_ok m sp); reflexivity.
Qed.

Lemma refine_mesh_app : forall rf1 rf2 m,
  refine_mesh (rf1 ++ rf2) m = refine_mesh rf2 (refine_mesh rf1 m).
Proof. intros. unfold refine_mesh. apply fold_left_app. Qed.

Lemma split_mesh_app : forall sp l1 l2, split_mesh sp (l1 ++ l2) = split_mesh sp l1 ++ split_mesh sp l2.
Proof. intros. unfold split_mesh. apply flat_map_app. Qed.

Lemma split_mesh_other : forall sp l, ~ In (sp_axis sp) (mesh_axes l) -> split_mesh sp l = l.
Proof.
  intros sp l. induction l as [|[y s] l IH]; intros H; [reflexivity |]. simpl in *.
  destruct (Nat.eqb_spec y (sp_axis sp)) as [E | _]; [exfalso; auto |].
  rewrite IH by auto. reflexivity.
Qed.

Lemma axis_size_middle : forall A B x s, ~ In x (mesh_axes A) ->
  axis_size (A ++ (x, s) :: B) x = s.
Proof.
  induction A as [|[y t] A IH]; intros B x s H; simpl in *; [rewrite Nat.eqb_refl; reflexivity |].
  destruct (Nat.eqb_spec x y); [exfalso; auto | auto].
Qed.

Lemma mesh_axes_app : forall A B, mesh_axes (A ++ B) = mesh_axes A ++ mesh_axes B.
Proof. intros. apply map_app. Qed.

Lemma refine_ok_cons : forall m sp rf,
  refine_ok m (sp :: rf) = split_ok m sp && refine_ok (split_mesh sp m) rf.
Proof. reflexivity. Qed.

Lemma refine_mesh_cons : forall m sp rf, refine_mesh (sp :: rf) m = refine_mesh rf (split_mesh sp m).
Proof. reflexivity. Qed.

(** What a chain of splits makes of one axis. *)
Fixpoint expand (x : axis) (fs : list nat) (fresh : nat) : mesh :=
  match fs with
  | [] | [_] => [(x, prod fs)]
  | f :: fs' => (fresh, f) :: expand (S fresh) fs' (S (S fresh))
  end.

Lemma chain_spec : forall fs x fresh A B, (forall f, In f fs -> 1 <= f) ->
  ~ In x (mesh_axes (A ++ B)) -> (forall y, In y (mesh_axes (A ++ B)) -> y < fresh) -> x < fresh ->
  refine_ok (A ++ (x, prod fs) :: B) (chain_splits x fs fresh) = true
  /\ refine_mesh (chain_splits x fs fresh) (A ++ (x, prod fs) :: B) = A ++ expand x fs fresh ++ B.
Proof.
  induction fs as [|f fs IH]; intros x fresh A B Hpos Hx Hlt Hxf; [split; reflexivity |].
  destruct fs as [|f2 fs]; [split; reflexivity |].
  set (sp := {| sp_axis := x; sp_hi := fresh; sp_lo := S fresh; sp_q := f; sp_r := prod (f2 :: fs) |}).
  rewrite mesh_axes_app in Hx, Hlt.
  assert (HxA : ~ In x (mesh_axes A)) by (intros H; apply Hx, in_or_app; auto).
  assert (HxB : ~ In x (mesh_axes B)) by (intros H; apply Hx, in_or_app; auto).
  assert (Hsplit : split_mesh sp (A ++ (x, prod (f :: f2 :: fs)) :: B)
                   = (A ++ [(fresh, f)]) ++ (S fresh, prod (f2 :: fs)) :: B).
  { rewrite split_mesh_app. rewrite (split_mesh_other sp A HxA).
    change ((x, prod (f :: f2 :: fs)) :: B) with ([(x, prod (f :: f2 :: fs))] ++ B).
    rewrite split_mesh_app, (split_mesh_other sp B HxB). simpl. rewrite Nat.eqb_refl. simpl.
    rewrite <- app_assoc. reflexivity. }
  assert (Hfresh : forall y, In y (mesh_axes (A ++ (x, prod (f :: f2 :: fs)) :: B)) -> y < fresh).
  { intros y Hy. rewrite mesh_axes_app in Hy. simpl in Hy. apply in_app_or in Hy.
    destruct Hy as [Hy | [<- | Hy]]; [apply Hlt, in_or_app; auto | exact Hxf | apply Hlt, in_or_app; auto]. }
  assert (Hok : split_ok (A ++ (x, prod (f :: f2 :: fs)) :: B) sp = true).
  { unfold split_ok. unfold sp. cbn [sp_axis sp_hi sp_lo sp_q sp_r].
    rewrite axis_size_middle by exact HxA.
    assert (Hin : memb x (mesh_axes (A ++ (x, prod (f :: f2 :: fs)) :: B)) = true).
    { apply memb_In. rewrite mesh_axes_app. apply in_or_app. right. left. reflexivity. }
    assert (Hh : memb fresh (mesh_axes (A ++ (x, prod (f :: f2 :: fs)) :: B)) = false)
      by (apply memb_false_notIn; intros H; apply Hfresh in H; lia).
    assert (Hl : memb (S fresh) (mesh_axes (A ++ (x, prod (f :: f2 :: fs)) :: B)) = false)
      by (apply memb_false_notIn; intros H; apply Hfresh in H; lia).
    rewrite Hin, Hh, Hl.
    assert (1 <= f) by (apply Hpos; left; reflexivity).
    assert (1 <= prod (f2 :: fs)) by (apply prod_pos; intros; apply Hpos; right; assumption).
    repeat rewrite andb_true_iff. rewrite !negb_true_iff, Nat.eqb_neq, Nat.eqb_eq, !Nat.leb_le.
    repeat split; try lia. }
  destruct (IH (S fresh) (S (S fresh)) (A ++ [(fresh, f)]) B) as [Hok' Hm'].
  - intros g Hg. apply Hpos. right. exact Hg.
  - rewrite !mesh_axes_app. simpl. intros H. apply in_app_or in H.
    destruct H as [H | H]; [apply in_app_or in H; destruct H as [H | [H | []]] |].
    + pose proof (Hlt (S fresh) (in_or_app _ _ _ (or_introl H))). lia.
    + lia.
    + pose proof (Hlt (S fresh) (in_or_app _ _ _ (or_intror H))). lia.
  - rewrite !mesh_axes_app. simpl. intros y H. apply in_app_or in H.
    destruct H as [H | H]; [apply in_app_or in H; destruct H as [H | [H | []]] |].
    + pose proof (Hlt y (in_or_app _ _ _ (or_introl H))). lia.
    + lia.
    + pose proof (Hlt y (in_or_app _ _ _ (or_intror H))). lia.
  - lia.
  - change (chain_splits x (f :: f2 :: fs) fresh) with (sp :: chain_splits (S fresh) (f2 :: fs) (S (S fresh))).
    split.
    + rewrite refine_ok_cons, Hok, Hsplit. exact Hok'.
    + rewrite refine_mesh_cons, Hsplit. unfold axis in *. rewrite Hm'. rewrite <- app_assoc. reflexivity.
Qed.

(** ** Every axis of the full prime refinement has size 1 or a prime size *)

Definition pair_atomic (p : axis * nat) : Prop := snd p = 1 \/ prime (snd p).

Lemma expand_atomic : forall fs x fresh, Forall prime fs -> Forall pair_atomic (expand x fs fresh).
Proof.
  induction fs as [|f fs IH]; intros x fresh H; [constructor; [left; reflexivity | constructor] |].
  inversion H as [| ? ? Hf Hfs]; subst.
  destruct fs as [|f2 fs].
  - constructor; [right; simpl; rewrite Nat.mul_1_r; exact Hf | constructor].
  - constructor; [right; exact Hf | apply IH, Hfs].
Qed.

Lemma expand_ids : forall fs x fresh y, In y (mesh_axes (expand x fs fresh)) ->
  (length fs <= 1 /\ y = x) \/ (fresh <= y < fresh + 2 * length fs).
Proof.
  induction fs as [|f fs IH]; intros x fresh y H.
  - simpl in H. destruct H as [<- | []]. left. simpl. lia.
  - destruct fs as [|f2 fs].
    + simpl in H. destruct H as [<- | []]. left. simpl. lia.
    + simpl in H. destruct H as [<- | H]; [right; simpl; lia |].
      destruct (IH (S fresh) (S (S fresh)) y H) as [[_ ->] | Hr]; right; simpl in *; lia.
Qed.

Lemma refine_all_spec : forall todo done fresh F0,
  (forall y, In y (mesh_axes todo) -> y < F0) -> NoDup (mesh_axes todo) ->
  Forall (fun p => 1 <= snd p) todo -> F0 <= fresh ->
  (forall y, In y (mesh_axes done) -> (y < F0 /\ ~ In y (mesh_axes todo)) \/ (F0 <= y < fresh)) ->
  Forall pair_atomic done ->
  refine_ok (done ++ todo) (refine_all (fun fs => fs) todo fresh) = true
  /\ Forall pair_atomic (refine_mesh (refine_all (fun fs => fs) todo fresh) (done ++ todo)).
Proof.
  induction todo as [|[x s] todo IH]; intros done fresh F0 Hlt Hnd Hpos Hf Hdone Hat.
  - simpl. rewrite app_nil_r. split; [reflexivity | exact Hat].
  - cbn [refine_all].
    inversion Hpos as [| ? ? Hs Hpos']; subst. simpl in Hs.
    simpl in Hnd. inversion Hnd as [| ? ? Hxt Hnd']; subst.
    destruct (prime_factors_spec s Hs) as [Hprod Hpr].
    set (fs := prime_factors s) in *.
    assert (HxF : x < F0) by (apply Hlt; left; reflexivity).
    assert (Hx : ~ In x (mesh_axes (done ++ todo))).
    { rewrite mesh_axes_app. intros H. apply in_app_or in H. destruct H as [H | H]; [| auto].
      destruct (Hdone x H) as [[_ Hn] | Hr]; [apply Hn; left; reflexivity | lia]. }
    assert (Hfr : forall y, In y (mesh_axes (done ++ todo)) -> y < fresh).
    { intros y H. rewrite mesh_axes_app in H. apply in_app_or in H. destruct H as [H | H].
      - destruct (Hdone y H) as [[Hy _] | Hy]; lia.
      - pose proof (Hlt y (or_intror H)). lia. }
    assert (Hfs1 : forall f, In f fs -> 1 <= f)
      by (intros f Hin; rewrite Forall_forall in Hpr; destruct (Hpr f Hin); lia).
    rewrite <- Hprod.
    destruct (chain_spec fs x fresh done todo Hfs1 Hx Hfr ltac:(lia)) as [Hok Hmesh].
    rewrite refine_ok_app, refine_mesh_app, Hok, Hmesh. simpl andb.
    rewrite app_assoc.
    apply (IH (done ++ expand x fs fresh) (fresh + 2 * length fs) F0).
    + intros y H. apply Hlt. right. exact H.
    + exact Hnd'.
    + exact Hpos'.
    + lia.
    + intros y H. rewrite mesh_axes_app in H. apply in_app_or in H. destruct H as [H | H].
      * destruct (Hdone y H) as [[Hy Hn] | Hy]; [left; split; [lia | intros H'; apply Hn; right; exact H'] | right; lia].
      * destruct (expand_ids fs x fresh y H) as [[_ ->] | Hy]; [left; split; [lia | exact Hxt] | right; lia].
    + apply Forall_app. split; [exact Hat | apply expand_atomic, Hpr].
Qed.

Definition full_refinement (m : mesh) : refinement := refine_all (fun fs => fs) m (fresh_axis m).

Lemma fold_max_spec : forall l a,
  a <= fold_left Nat.max l a /\ forall y, In y l -> y <= fold_left Nat.max l a.
Proof.
  induction l as [|x l IH]; intros a; simpl; [split; [lia | intros _ []] |].
  destruct (IH (Nat.max a x)) as [H1 H2]. split; [lia |].
  intros y [<- | Hy]; [lia | apply H2, Hy].
Qed.

Lemma in_axis_size : forall m x, In x (mesh_axes m) -> In (x, axis_size m x) m.
Proof.
  induction m as [|[y s] m IH]; intros x H; simpl in *; [contradiction |].
  destruct (Nat.eqb_spec x y) as [-> | Hne]; [left; reflexivity |].
  right. apply IH. destruct H as [-> | H]; [congruence | exact H].
Qed.

Theorem full_refinement_ok : forall m, mesh_wf m = true ->
  refine_ok m (full_refinement m) = true /\ atoms_prime (refine_mesh (full_refinement m) m).
Proof.
  intros m Hm.
  assert (Hall : Forall (fun p => 1 <= snd p) m).
  { unfold mesh_wf in Hm. apply andb_true_iff in Hm. destruct Hm as [_ Hm].
    rewrite forallb_forall in Hm. apply Forall_forall. intros p Hp. apply Nat.leb_le, Hm, Hp. }
  destruct (refine_all_spec m [] (fresh_axis m) (fresh_axis m)) as [Hok Hat].
  - intros y Hy. unfold fresh_axis. pose proof (proj2 (fold_max_spec (mesh_axes m) 0) y Hy). lia.
  - apply mesh_wf_NoDup, Hm.
  - exact Hall.
  - lia.
  - intros y [].
  - constructor.
  - split; [exact Hok |]. intros x Hx. simpl in Hat.
    rewrite Forall_forall in Hat. exact (Hat _ (in_axis_size _ x Hx)).
Qed.
