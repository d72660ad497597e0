(** * The traffic lower bound, as a theorem about the semantics.

    A step of any kind is an index map over world ranks ([wire_map]) and the
    local shapes after it; Part 1's collectives ([collective_wire]) and the
    exchange ([exchange_wire]) are such steps.  What a rank receives is
    counted from the map alone ([wire_received]).

    [lower_bound_sound]: any sequence of steps whose maps read only existing
    elements, and that takes every state holding the source layout to one
    holding the target layout, makes rank [r] receive at least the number of
    elements of its target box that are not in its source box.  Argument:
    follow each element of [r]'s final array back; one that never left [r]
    came from [r]'s source box; every other one was received by [r] at some
    step, and distinct global indices are distinct received elements.

    Consequences: the exchange with [spread_holder] attains the bound
    ([exchange_optimal]); no plan the checker accepts makes a rank receive
    fewer than the bound the command prints ([check_recv_ge_lower_bound]). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Steps Model Semantics Checker Radix Semanticsproof Checkerproof
  Trafficproof Layout Layoutproof Exchange Exchangeproof.

(** ** Sequences of steps *)

(** A step reads, at every position of a new local array, an element that
    exists in the old state. *)
Definition valid_move (sh sh' : shapes) (wr : wire_map) : Prop :=
  forall r s', sh' r = Some s' -> forall l, in_box s' l ->
  exists s, sh (fst (wr r l)) = Some s /\ in_box s (snd (wr r l)).

(** Steps: each a data movement and the local shapes after it. *)
Definition moves : Type := list (wire_map * shapes).

Fixpoint run_moves {A} (ms : moves) (st : state A) : state A :=
  match ms with
  | [] => st
  | (wr, _) :: ms' => run_moves ms' (run_wire wr st)
  end.

Notation moves_valid := (steps_valid valid_move).
Notation final_shapes := (@steps_final wire_map shapes).

(** Elements rank [r] receives over all the steps. *)
Fixpoint moves_received (ms : moves) (r : nat) : nat :=
  match ms with
  | [] => 0
  | (wr, sh') :: ms' => wire_received wr sh' r + moves_received ms' r
  end.

(** ** Following elements back *)

(** The elements [r] receives, step by step, as they were before each step. *)
Fixpoint arrivals {A} (ms : moves) (st : state A) (r : nat) : list A :=
  match ms with
  | [] => []
  | (wr, sh') :: ms' =>
      map (fun l => st (fst (wr r l)) (snd (wr r l)))
          (filter (fun l => negb (fst (wr r l) =? r)) (positions sh' r))
      ++ arrivals ms' (run_wire wr st) r
  end.

Lemma arrivals_length : forall A ms (st : state A) r,
  length (arrivals ms st r) = moves_received ms r.
Proof.
  induction ms as [|[wr sh'] ms IH]; intros st r; simpl; [reflexivity |].
  rewrite app_length, map_length, IH. reflexivity.
Qed.

(** Every element of [r]'s final array was in [r]'s array at the start or
    is one of its arrivals. *)
Lemma trace_back : forall A ms sh (st : state A) (inv : list A) r,
  moves_valid sh ms ->
  (forall s l, sh r = Some s -> in_box s l -> In (st r l) inv) ->
  forall s l, final_shapes sh ms r = Some s -> in_box s l ->
  In (run_moves ms st r l) (inv ++ arrivals ms st r).
Proof.
  intros A ms. induction ms as [|[wr sh'] ms IH]; intros sh st inv r Hv Hinv s l Hs Hl; simpl in *.
  - rewrite app_nil_r. eapply Hinv; eassumption.
  - destruct Hv as [Hwr Hv]. rewrite app_assoc. eapply IH; [exact Hv | | exact Hs | exact Hl].
    clear s l Hs Hl. intros s l Hs Hl. unfold run_wire. apply in_or_app.
    destruct (Nat.eqb_spec (fst (wr r l)) r) as [E | E].
    + left. destruct (Hwr r s Hs l Hl) as [s0 [Hs0 Hl0]]. rewrite E in *. eapply Hinv; eassumption.
    + right. apply in_map_iff. exists l. split; [reflexivity |]. apply filter_In. split.
      * unfold positions. rewrite Hs. apply in_box_indices. exact Hl.
      * apply Nat.eqb_neq in E. rewrite E. reflexivity.
Qed.

(** The initial state whose elements are their own global indices. *)
Definition labels (S : layout) : state (list nat) :=
  fun r l => match pl_box S r with Some sb => box_global sb l | None => l end.

(** The bound for steps that start from shapes [sh0] agreeing with the
    source layout's at [r] (the same mesh seen with sub-axes, say). *)
Lemma lower_bound_moves : forall S T sh0 ms r,
  moves_valid sh0 ms -> sh0 r = pl_shapes S r ->
  final_shapes sh0 ms r = pl_shapes T r ->
  (forall A (g : list nat -> A) (st : state A), pl_holds S g st -> pl_holds T g (run_moves ms st)) ->
  length (missing S T r) <= moves_received ms r.
Proof.
  intros S T sh0 ms r Hv H0 Hfin Hcorrect.
  set (inv := match pl_box S r with
              | Some sb => map (box_global sb) (box_indices (box_shape sb)) | None => [] end).
  assert (Hinv : forall s l, sh0 r = Some s -> in_box s l -> In (labels S r l) inv).
  { intros s l Hs Hl. rewrite H0 in Hs. unfold pl_shapes, labels, inv in *.
    destruct (pl_box S r) as [sb|]; [| discriminate]. inversion Hs. subst s.
    apply in_map. apply in_box_indices. exact Hl. }
  assert (Hend : pl_holds T (fun i => i) (run_moves ms (labels S))).
  { apply Hcorrect. intros w b Hb l _. unfold labels. rewrite Hb. reflexivity. }
  rewrite <- (arrivals_length _ ms (labels S) r). apply NoDup_incl_length.
  - unfold missing. destruct (pl_box T r) as [b|]; [| constructor].
    apply NoDup_filter. apply NoDup_box_globals.
  - intros i Hi. unfold missing in Hi. destruct (pl_box T r) as [b|] eqn:Hb; [| contradiction].
    apply filter_In in Hi. destruct Hi as [Hi Hnot]. apply in_map_iff in Hi.
    destruct Hi as [l [<- Hl]]. apply in_box_indices in Hl.
    assert (Hs : final_shapes sh0 ms r = Some (box_shape b))
      by (rewrite Hfin; unfold pl_shapes; rewrite Hb; reflexivity).
    pose proof (trace_back _ ms _ (labels S) inv r Hv Hinv _ l Hs Hl) as Htr.
    rewrite (Hend r b Hb l Hl) in Htr. apply in_app_or in Htr. destruct Htr as [Hin | Hin]; [| exact Hin].
    exfalso. unfold inv in Hin. destruct (pl_box S r) as [sb|]; [| contradiction].
    apply in_map_iff in Hin. destruct Hin as [l' [E Hl']]. apply in_box_indices in Hl'.
    simpl in Hnot. rewrite <- E, box_global_has in Hnot by exact Hl'. discriminate.
Qed.

Theorem lower_bound_sound : forall S T ms r,
  moves_valid (pl_shapes S) ms ->
  final_shapes (pl_shapes S) ms r = pl_shapes T r ->
  (forall A (g : list nat -> A) (st : state A), pl_holds S g st -> pl_holds T g (run_moves ms st)) ->
  length (missing S T r) <= moves_received ms r.
Proof. intros S T ms r Hv Hfin Hc. eapply lower_bound_moves; eauto. Qed.

(** ** The exchange is a step, and attains the bound *)

Lemma exchange_valid_move : forall S T h, returns_holders S T h ->
  valid_move (pl_shapes S) (pl_shapes T) (exchange_wire S T h).
Proof.
  intros S T h Hh r s' Hs' l Hl. unfold pl_shapes in *.
  destruct (pl_box T r) as [b|] eqn:Hb; [| discriminate]. inversion Hs'. subst s'.
  unfold exchange_wire. rewrite Hb. cbn [fst snd].
  pose proof (Hh r b _ Hb (box_global_has b l Hl)) as Hi.
  destruct (pl_box S (h r (box_global b l))) as [sb|]; [| discriminate].
  exists (box_shape sb). split; [reflexivity |]. apply box_has_local. exact Hi.
Qed.

(** The exchange with the command's holder choice receives exactly the
    printed bound, and no valid sequence of steps that moves every source
    state to its target receives less. *)
Theorem exchange_optimal : forall S T r, layouts_wf S T = true ->
  exchange_received S T (spread_holder S T) r = recv_lower_bound S T r
  /\ forall ms, moves_valid (pl_shapes S) ms ->
     final_shapes (pl_shapes S) ms r = pl_shapes T r ->
     (forall A (g : list nat -> A) st, pl_holds S g st -> pl_holds T g (run_moves ms st)) ->
     exchange_received S T (spread_holder S T) r <= moves_received ms r.
Proof.
  intros S T r Hwf. destruct (spread_holder_ok S T Hwf) as [Hh Hself].
  rewrite exchange_recv_exact by assumption. split.
  - symmetry. apply recv_lower_bound_exact. exact Hwf.
  - intros ms Hv Hfin Hc. apply lower_bound_sound; assumption.
Qed.

(** ** Part 1's collectives are steps; no accepted plan beats the bound *)

Definition collective_wire (m : mesh) (t : ty) (k : collective) : wire_map :=
  fun r l => let w := wire m t k (device_of_rank m r) l in (rank m (fst w), snd w).

Fixpoint in_boxb (shape l : list nat) : bool :=
  match shape, l with
  | [], [] => true
  | n :: shape', i :: l' => (i <? n) && in_boxb shape' l'
  | _, _ => false
  end.

Lemma in_boxb_iff : forall shape l, in_boxb shape l = true <-> in_box shape l.
Proof.
  induction shape as [|n shape IH]; intros [|i l]; simpl; try (split; easy).
  rewrite andb_true_iff, Nat.ltb_lt, IH. reflexivity.
Qed.

Lemma collective_valid_move : forall m t k t', mesh_wf m = true -> ty_wf m t = true ->
  step_type m t k = OK t' ->
  valid_move (pl_shapes (even_layout m t)) (pl_shapes (even_layout m t')) (collective_wire m t k).
Proof.
  intros m t k t' Hm Ht Hk r s' Hs' l Hl.
  assert (Ht' : ty_wf m t' = true) by (eapply step_type_wf; eassumption).
  rewrite pl_shapes_even in Hs' by assumption.
  destruct (Nat.ltb_spec r (mesh_size m)) as [Hr | _]; [| discriminate]. inversion Hs'. subst s'.
  (* Soundness on the state that marks existing elements: every read one exists. *)
  set (st := fun w l => (w <? mesh_size m) && in_boxb (local_shape m t) l).
  assert (Hst : holds m t (fun _ => true) st).
  { intros w Hw l0 Hl0. unfold st. apply Nat.ltb_lt in Hw. rewrite Hw. apply in_boxb_iff. exact Hl0. }
  pose proof (step_sound m t k t' _ _ st Hm Ht Hk Hst r Hr l Hl) as Hread.
  unfold exec_step, collective_wire in *. destruct (wire m t k (device_of_rank m r) l) as [c' l'].
  unfold st in Hread. apply andb_true_iff in Hread. destruct Hread as [Hc' Hl'].
  exists (local_shape m t). cbn [fst snd]. split.
  - rewrite pl_shapes_even by assumption. rewrite Hc'. reflexivity.
  - apply in_boxb_iff. exact Hl'.
Qed.

(** The steps of a Part 1 plan. *)
Fixpoint plan_moves (m : mesh) (t : ty) (p : plan) : moves :=
  match p with
  | [] => []
  | k :: p' =>
      match step_type m t k with
      | OK t' => (collective_wire m t k, pl_shapes (even_layout m t')) :: plan_moves m t' p'
      | Error _ => []
      end
  end.

Lemma run_moves_ext : forall A ms (st st' : state A), (forall r l, st r l = st' r l) ->
  forall r l, run_moves ms st r l = run_moves ms st' r l.
Proof.
  induction ms as [|[wr sh] ms IH]; intros st st' H r l; simpl; [apply H |].
  apply IH. intros r' l'. unfold run_wire. apply H.
Qed.

Section Plan.
Variable m : mesh.
Hypothesis Hm : mesh_wf m = true.

Lemma plan_moves_facts : forall t p t'', ty_wf m t = true -> plan_typed m t p t'' ->
  moves_valid (pl_shapes (even_layout m t)) (plan_moves m t p)
  /\ final_shapes (pl_shapes (even_layout m t)) (plan_moves m t p) = pl_shapes (even_layout m t'')
  /\ (forall A (st : state A) r l, run_moves (plan_moves m t p) st r l = exec m t p st r l)
  /\ (forall r, r < mesh_size m ->
      moves_received (plan_moves m t p) r = list_sum (received_trace m t p r)).
Proof.
  intros t p t'' Ht H. induction H as [t | t k t' p t'' Hk Hp IH].
  - simpl. repeat split; reflexivity.
  - assert (Ht' : ty_wf m t' = true) by (eapply step_type_wf; eassumption).
    destruct (IH Ht') as [Hv [Hf [Hrun Hrecv]]]. simpl. rewrite Hk.
    split; [split; [apply collective_valid_move; assumption | exact Hv] |].
    split; [exact Hf |]. split.
    + intros A st r l. simpl. rewrite <- Hrun. apply run_moves_ext. intros r' l'.
      unfold run_wire, exec_step, collective_wire.
      destruct (wire m t k (device_of_rank m r') l'). reflexivity.
    + intros r Hr. simpl. rewrite Hrecv by exact Hr. f_equal.
      unfold wire_received, received, positions. rewrite Hk, pl_shapes_even by assumption.
      apply Nat.ltb_lt in Hr. rewrite Hr. reflexivity.
Qed.

End Plan.

Lemma pl_holds_ext : forall A L (g : list nat -> A) (st st' : state A),
  (forall r l, st r l = st' r l) -> pl_holds L g st -> pl_holds L g st'.
Proof. intros A L g st st' E H w b Hb l Hl. rewrite <- E. apply H; assumption. Qed.

(** No plan the checker accepts makes a rank receive fewer elements than the
    lower bound the command prints. *)
Theorem check_recv_ge_lower_bound : forall m src tgt p rep r,
  check m src tgt p = OK rep -> r < mesh_size m ->
  lower_bound_recv m src tgt r <= list_sum (received_trace m src p r).
Proof.
  intros m src tgt p rep r Hc Hr.
  destruct (check_wf m src tgt p rep Hc) as [Hm [Hs [Ht [Hg Hsteps]]]].
  apply check_steps_ok in Hsteps. destruct Hsteps as [Htyped _].
  destruct (plan_moves_facts m Hm src p tgt Hs Htyped) as [Hv [Hf [Hrun Hrecv]]].
  assert (Hwf : layouts_wf (even_layout m src) (even_layout m tgt) = true).
  { unfold layouts_wf. rewrite !layout_wf_even by assumption. simpl.
    apply list_eqb_eq. exact Hg. }
  rewrite lower_bound_recv_even, recv_lower_bound_exact, <- Hrecv by assumption.
  apply lower_bound_sound; [exact Hv | rewrite Hf; reflexivity |].
  intros A g st Hst. eapply pl_holds_ext; [intros r' l'; symmetry; apply Hrun |].
  apply pl_holds_even; [exact Hm | exact Ht |]. eapply check_correct; [exact Hc |].
  apply pl_holds_even; assumption.
Qed.
