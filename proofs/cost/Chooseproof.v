(** * The choice among costed candidates: what it guarantees, for any kind of plan.

    - [choose_among_best_in]: the chosen candidate is one of them, fits
      the budget, and no candidate that fits has a smaller predicted time.
    - [choose_among_within_budget]: its allocated bytes per rank are within the budget.
    - [choose_among_below_minimum]: a refused budget is below every
      candidate's allocated bytes per rank, and the figure named is the least of them.
    - [choose_among_answers]: with a candidate, the choice is one, or that
      refusal of a budget.
    - [cost_list_sound], [cost_list_complete]: the costed candidates are
      those the costing accepts, each with what the costing says of it.

    [Costproof.v] and [Costsumsproof.v] state these for [Cost.choose] and
    [Costsums.choose_sums] in terms of their candidates. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Semantics Choose.

Section Choice.

Context {P : Type}.

Lemma cost_list_sound : forall (cost : nat -> P -> option (costed P)) (Q : P -> costed P -> Prop),
  (forall i p c, cost i p = Some c -> cs_plan c = p /\ Q p c) ->
  forall ps i c, In c (cost_list cost i ps) -> In (cs_plan c) ps /\ Q (cs_plan c) c.
Proof.
  intros cost Q Hcost ps. induction ps as [|p ps IH]; intros i c Hin; simpl in Hin; [contradiction |].
  destruct (cost i p) as [c'|] eqn:Hc.
  - destruct Hin as [<- | Hin].
    + destruct (Hcost _ _ _ Hc) as [Hp HQ]. rewrite Hp. split; [left; reflexivity | exact HQ].
    + destruct (IH _ _ Hin) as [Hp HQ]. split; [right; exact Hp | exact HQ].
  - destruct (IH _ _ Hin) as [Hp HQ]. split; [right; exact Hp | exact HQ].
Qed.

Lemma cost_list_complete : forall (cost : nat -> P -> option (costed P)) ps i p,
  In p ps -> (forall j, exists c, cost j p = Some c /\ cs_plan c = p) ->
  exists c, In c (cost_list cost i ps) /\ cs_plan c = p.
Proof.
  intros cost ps. induction ps as [|p0 ps IH]; intros i p Hin Hcost; [contradiction |].
  simpl. destruct Hin as [<- | Hin].
  - destruct (Hcost i) as [c [Hc Hp]]. rewrite Hc. exists c. split; [left; reflexivity | exact Hp].
  - destruct (IH (S i) p Hin Hcost) as [c [Hc Hp]].
    destruct (cost i p0); exists c; split; try (right; exact Hc); try exact Hc; exact Hp.
Qed.

Lemma cheaper_time : forall a b : costed P, cheaper a b = true -> cs_time_ns a <= cs_time_ns b.
Proof.
  intros a b H. unfold cheaper in H. simpl in H.
  apply orb_true_iff in H as [H | H]; [apply Nat.ltb_lt in H; lia |].
  apply andb_true_iff in H as [H _]. apply Nat.eqb_eq in H. lia.
Qed.

Lemma not_cheaper_time : forall a b : costed P, cheaper a b = false -> cs_time_ns b <= cs_time_ns a.
Proof.
  intros a b H. unfold cheaper in H. simpl in H.
  apply orb_false_iff in H as [H _]. apply Nat.ltb_ge in H. exact H.
Qed.

Lemma least_spec : forall cs (c : costed P),
  In (least c cs) (c :: cs) /\ forall x, In x (c :: cs) -> cs_time_ns (least c cs) <= cs_time_ns x.
Proof.
  unfold least. induction cs as [|c' cs IH]; intros c; simpl.
  - split; [left; reflexivity | intros x [<- | []]; lia].
  - destruct (cheaper c' c) eqn:Hch.
    + destruct (IH c') as [Hin Hle]. split.
      * destruct Hin as [<- | Hin]; [right; left; reflexivity | right; right; exact Hin].
      * intros x [<- | [<- | Hx]].
        -- pose proof (cheaper_time _ _ Hch). specialize (Hle c' (or_introl eq_refl)). lia.
        -- apply Hle. left. reflexivity.
        -- apply Hle. right. exact Hx.
    + destruct (IH c) as [Hin Hle]. split.
      * destruct Hin as [<- | Hin]; [left; reflexivity | right; right; exact Hin].
      * intros x [<- | [<- | Hx]].
        -- apply Hle. left. reflexivity.
        -- pose proof (not_cheaper_time _ _ Hch). specialize (Hle c (or_introl eq_refl)). lia.
        -- apply Hle. right. exact Hx.
Qed.

Lemma choose_among_best_in : forall budget (all : list (costed P)) ch, choose_among budget all = OK ch ->
  In (ch_best ch) all /\ fits budget (ch_best ch) = true
  /\ forall c, In c all -> fits budget c = true -> cs_time_ns (ch_best ch) <= cs_time_ns c.
Proof.
  intros budget all ch H. unfold choose_among in H.
  destruct (filter (fits budget) all) as [|c cs] eqn:Hf; [destruct all; discriminate |].
  inversion H. subst ch. simpl. destruct (least_spec cs c) as [Hin Hle].
  assert (Hsub : forall x, In x (c :: cs) <-> In x all /\ fits budget x = true)
    by (intros x; rewrite <- Hf; apply filter_In).
  split; [apply Hsub, Hin |]. split; [apply Hsub, Hin |].
  intros x Hx Hfx. apply Hle, Hsub. auto.
Qed.

Theorem choose_among_within_budget : forall b (all : list (costed P)) ch,
  choose_among (Some b) all = OK ch -> cs_alloc_bytes (ch_best ch) <= b.
Proof.
  intros b all ch H. destruct (choose_among_best_in _ _ _ H) as [_ [Hfit _]].
  simpl in Hfit. apply Nat.leb_le in Hfit. exact Hfit.
Qed.

Lemma fold_min_spec : forall l a,
  (fold_left Nat.min l a = a \/ In (fold_left Nat.min l a) l)
  /\ fold_left Nat.min l a <= a /\ forall x, In x l -> fold_left Nat.min l a <= x.
Proof.
  induction l as [|y l IH]; intros a; simpl; [split; [left |]; auto; split; [lia | contradiction] |].
  destruct (IH (Nat.min a y)) as [Hat [Ha Hx]]. split; [| split].
  - destruct Hat as [-> | Hin]; [| right; right; exact Hin].
    destruct (Nat.min_spec a y) as [[_ ->] | [_ ->]]; [left | right; left]; reflexivity.
  - lia.
  - intros x [<- | Hin]; [lia | apply Hx, Hin].
Qed.

Theorem choose_among_below_minimum : forall budget (all : list (costed P)) least_bytes,
  choose_among budget all = Error (BelowMinimum least_bytes) ->
  (exists b, budget = Some b /\ b < least_bytes)
  /\ (forall c, In c all -> least_bytes <= cs_alloc_bytes c)
  /\ exists c, In c all /\ cs_alloc_bytes c = least_bytes.
Proof.
  intros budget all least_bytes H. unfold choose_among in H.
  destruct (filter (fits budget) all) as [|c0 cs0] eqn:Hf; [| discriminate].
  destruct all as [|c cs]; [discriminate |]. inversion H. subst least_bytes.
  assert (Hnofit : forall x, In x (c :: cs) -> fits budget x = false).
  { intros x Hx. destruct (fits budget x) eqn:Hfx; [| reflexivity].
    assert (In x (filter (fits budget) (c :: cs))) by (apply filter_In; auto).
    rewrite Hf in H0. contradiction. }
  destruct (fold_min_spec (map cs_alloc_bytes cs) (cs_alloc_bytes c)) as [Hat [Hc Hx]].
  split; [| split].
  - destruct budget as [b|]; [| specialize (Hnofit c (or_introl eq_refl)); discriminate].
    exists b. split; [reflexivity |].
    destruct Hat as [-> | Hin].
    + specialize (Hnofit c (or_introl eq_refl)). simpl in Hnofit. apply Nat.leb_gt in Hnofit. exact Hnofit.
    + apply in_map_iff in Hin as [x [<- Hin]]. specialize (Hnofit x (or_intror Hin)).
      simpl in Hnofit. apply Nat.leb_gt in Hnofit. exact Hnofit.
  - intros x [<- | Hin]; [exact Hc | apply Hx, in_map, Hin].
  - destruct Hat as [Heq | Hin]; [exists c; split; [left |]; auto |].
    apply in_map_iff in Hin as [x [Hx' Hin]]. exists x. split; [right; exact Hin | exact Hx'].
Qed.

Theorem choose_among_answers : forall budget (all : list (costed P)), all <> [] ->
  (exists ch, choose_among budget all = OK ch)
  \/ exists b least_bytes, budget = Some b /\ choose_among budget all = Error (BelowMinimum least_bytes).
Proof.
  intros budget all Hne. unfold choose_among.
  destruct (filter (fits budget) all) as [|c0 cs0] eqn:Hf; [| left; eexists; reflexivity].
  right. destruct all as [|c cs]; [contradiction |]. destruct budget as [b|].
  - exists b. eexists. split; reflexivity.
  - assert (Hc : In c (filter (fits None) (c :: cs))) by (apply filter_In; split; [left |]; reflexivity).
    rewrite Hf in Hc. contradiction.
Qed.

End Choice.
