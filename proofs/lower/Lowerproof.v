(** * The lowering is correct: data, groups, live bytes and workspace.

    [lower_plan_correct]: interpreting the lowered calls of a checker-accepted
    plan over separate per-rank buffers leaves every rank's target box in
    its destination, and its source untouched.  [lower_rank_wire],
    [lower_rank_correct]: the same with the runtime's rank-space arithmetic
    on the printed calls ([lower_groups], [lower_recv_from]: the printed
    group and permute table are the wire map's).  [lower_live_bytes]: the
    bytes alive on a rank at any call are at most [live_bytes], which is at
    most [(|src| + |tgt| + 2 * peak) * elem + scratch_bytes] and at most
    [(|src| + |tgt| + 3 * peak) * elem] (a call's scratch is at most the
    larger array it touches, [lower_scratch_le]).  [lower_workspace_exact]:
    the workspace is exactly the furthest byte of it that some call reads,
    writes or uses as scratch.  [lower_splan_correct], [lower_splan_live_bytes],
    [lower_splan_workspace_exact]: any strategy, hybrids included. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Buffers Model Semantics Checker Planner Layout Exchange Strategy Lower.
From Redist Require Import Radix Semanticsproof Trafficproof Checkerproof Plannerproof Strategyproof
  Layoutproof Exchangeproof.

Definition buffer_beq_refl := beq_refl buffer_beq internal_buffer_dec_lb.
Definition buffer_beq_eq := beq_true_iff buffer_beq internal_buffer_dec_bl internal_buffer_dec_lb.

Lemma interp_cons : forall A m c cs (bs : buffers A),
  interp m (c :: cs) bs = interp m cs (run_call m bs c).
Proof. reflexivity. Qed.

Lemma trace_head : forall m t p, In t (trace m t p).
Proof. intros m t [|k p]; left; reflexivity. Qed.

(** ** Data: the destination ends with what [exec] gives *)

Lemma lower_steps_correct : forall p m elem t tgt inb A (bs : buffers A),
  p <> [] -> run_type m t p = Some tgt ->
  interp m (lower_steps m elem t p inb) bs BDst = exec m t p (bs inb).
Proof.
  induction p as [|k p IH]; intros m elem t tgt inb A bs Hp Hrun; [contradiction |].
  simpl in Hrun. simpl lower_steps. simpl exec.
  destruct (step_type m t k) as [t'|] eqn:Hs; [| discriminate].
  rewrite interp_cons. destruct p as [|k2 p2].
  - reflexivity.
  - rewrite (IH m elem t' tgt _ A _ ltac:(discriminate) Hrun).
    unfold run_call, write_buffer. simpl. rewrite buffer_beq_refl. reflexivity.
Qed.

Lemma lower_correct : forall m elem src tgt p A (st other : state A),
  run_type m src p = Some tgt ->
  interp m (lower m elem src p) (initial_buffers st other) BDst = exec m src p st.
Proof.
  intros m elem src tgt [|k p] A st other Hrun.
  - reflexivity.
  - exact (lower_steps_correct (k :: p) m elem src tgt BSrc A (initial_buffers st other)
             ltac:(discriminate) Hrun).
Qed.

(** No call writes the source, and no call writes the array it reads. *)
Lemma lower_steps_buffers : forall p m elem t inb c,
  inb <> BDst -> In c (lower_steps m elem t p inb) ->
  cl_out c <> BSrc /\ cl_in c <> cl_out c.
Proof.
  induction p as [|k p IH]; intros m elem t inb c Hinb Hin; [destruct Hin |].
  simpl in Hin. destruct (step_type m t k) as [t'|]; [| destruct Hin].
  destruct Hin as [<- | Hin].
  - unfold lower_step; simpl. destruct p; destruct inb; simpl; split; try discriminate; congruence.
  - destruct p as [|k2 p2]; [destruct Hin |].
    apply (IH m elem t' (next_work inb) c); [destruct inb; discriminate | exact Hin].
Qed.

Theorem lower_buffers : forall m elem src p c, In c (lower m elem src p) ->
  cl_out c <> BSrc /\ cl_in c <> cl_out c.
Proof.
  intros m elem src [|k p] c Hin.
  - destruct Hin as [<- | []]. simpl. split; discriminate.
  - apply (lower_steps_buffers (k :: p) m elem src BSrc); [discriminate | exact Hin].
Qed.

Lemma interp_keeps : forall A m cs (bs : buffers A) b,
  (forall c, In c cs -> cl_out c <> b) -> interp m cs bs b = bs b.
Proof.
  intros A m cs. induction cs as [|c cs IH]; intros bs b H; [reflexivity |].
  rewrite interp_cons, IH by (intros; apply H; right; assumption).
  unfold run_call, write_buffer. destruct (buffer_beq b (cl_out c)) eqn:E; [| reflexivity].
  apply buffer_beq_eq in E. exfalso. apply (H c); [left |]; auto.
Qed.

(** The headline: every rank's destination holds its target box, its source is kept. *)
Theorem lower_plan_correct : forall m src tgt p rep elem, check m src tgt p = OK rep ->
  forall A (g : list nat -> A) (st other : state A), holds m src g st ->
  let bs := interp m (lower m elem src p) (initial_buffers st other) in
  holds m tgt g (bs BDst) /\ bs BSrc = st.
Proof.
  intros m src tgt p rep elem Hc A g st other Hst bs. split.
  - unfold bs. rewrite (lower_correct m elem src tgt p A st other (run_type_check _ _ _ _ _ Hc)).
    eapply check_correct; eassumption.
  - unfold bs. rewrite interp_keeps; [reflexivity |].
    intros c Hin. apply (lower_buffers m elem src p c Hin).
Qed.

(** ** Groups in rank space *)

Lemma step_axis_in_mesh : forall m t k t' x, ty_wf m t = true ->
  step_type m t k = OK t' -> step_axis t k = Some x -> In x (mesh_axes m).
Proof.
  intros m t k t' x Ht Hk Hx.
  assert (Hlast : forall d xs n ys a, nth_error t d = Some (xs, n) -> split_last xs = Some (ys, a) ->
            last_axis (fst (dim_of t d)) = a /\ In a (mesh_axes m)).
  { intros d xs n ys a Hd Hl. apply split_last_app in Hl. subst xs.
    rewrite (dim_of_nth_error t d _ Hd). unfold last_axis. simpl. rewrite last_last.
    split; [reflexivity |]. apply (ty_wf_axes_in_mesh m t Ht).
    apply (In_ty_axes t (ys ++ [a], n)); [apply nth_error_In with d; exact Hd |].
    simpl. apply in_or_app. right. left. reflexivity. }
  destruct k as [d y | d | s u | t'']; simpl in Hk, Hx; try discriminate; injection Hx as <-.
  - destruct (nth_error t d) as [[xs n]|]; [| discriminate].
    destruct (memb y (mesh_axes m)) eqn:E; [apply memb_In, E | discriminate].
  - destruct (nth_error t d) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (split_last xs) as [[ys a]|] eqn:Hl; [| discriminate].
    destruct (Hlast d xs n ys a Hd Hl) as [-> H]. exact H.
  - destruct (Nat.eqb s u); [discriminate |].
    destruct (nth_error t s) as [[xs n]|] eqn:Hd; [| discriminate].
    destruct (nth_error t u) as [[zs n']|]; [| discriminate].
    destruct (split_last xs) as [[ys a]|] eqn:Hl; [| discriminate].
    destruct (Hlast s xs n ys a Hd Hl) as [-> H]. exact H.
Qed.

(** Every call of a lowered plan is [lower_step] of a step that type-checks
    from a well-formed type. *)
Lemma lower_steps_steps : forall p m elem t inb c, mesh_wf m = true -> ty_wf m t = true ->
  In c (lower_steps m elem t p inb) ->
  exists u k u' i o, c = lower_step m elem u u' k i o /\ step_type m u k = OK u' /\ ty_wf m u = true.
Proof.
  induction p as [|k p IH]; intros m elem t inb c Hm Ht Hin; [destruct Hin |].
  simpl in Hin. destruct (step_type m t k) as [t'|] eqn:Hs; [| destruct Hin].
  destruct Hin as [<- | Hin].
  - do 5 eexists. split; [reflexivity | split; assumption].
  - eapply (IH m elem t'); [exact Hm | apply (step_type_wf m t k t' Hm Ht Hs) | exact Hin].
Qed.

Lemma lower_steps_of_check : forall m src tgt p rep elem c, check m src tgt p = OK rep ->
  In c (lower m elem src p) -> cl_op c <> None ->
  exists u k u' i o, c = lower_step m elem u u' k i o /\ step_type m u k = OK u' /\ ty_wf m u = true.
Proof.
  intros m src tgt p rep elem c Hc Hin Hop.
  destruct (check_wf m src tgt p rep Hc) as [Hm [Hs _]].
  destruct p as [|k0 p]; [destruct Hin as [<- | []]; contradiction |].
  apply (lower_steps_steps (k0 :: p) m elem src BSrc c Hm Hs Hin).
Qed.

(** A call's group [(stride, size)] is its axis's: the member index the
    runtime computes, [(r / stride) mod size], is the coordinate of rank
    [r]'s device on that axis. *)
Theorem lower_groups : forall m src tgt p rep elem, check m src tgt p = OK rep ->
  forall c k w s, In c (lower m elem src p) -> cl_op c = Some k -> cl_group c = Some (w, s) ->
  exists x, step_axis (cl_ty c) k = Some x /\ s = axis_size m x
    /\ forall r, r < mesh_size m -> device_of_rank m r x = r / w mod s.
Proof.
  intros m src tgt p rep elem Hc c k w s Hin Hk Hg.
  destruct (check_wf m src tgt p rep Hc) as [Hm _].
  destruct (lower_steps_of_check m src tgt p rep elem c Hc Hin ltac:(congruence))
    as [u [k' [u' [i [o [-> [Hst Ht]]]]]]].
  simpl in Hk, Hg |- *. injection Hk as Ek. subst k'.
  destruct (step_axis u k) as [x|] eqn:Ex; simpl in Hg; [| discriminate].
  injection Hg as Hg.
  destruct (rank_weights_spec m x Hm (step_axis_in_mesh m _ k u' x Ht Hst Ex)) as [pre [post [Ea Ew]]].
  unfold axis_group in Hg. rewrite Ew in Hg. injection Hg as <- <-.
  exists x. split; [reflexivity | split; [reflexivity |]].
  intros r Hr. apply (device_digit m r pre x post Hm Hr Ea).
Qed.

(** ** The permute table read off the ranks' digits *)

Lemma weight_of_notin : forall ws x, ~ In x (map fst ws) -> weight_of ws x = (1, 1).
Proof.
  induction ws as [|[y p] ws IH]; intros x Hx; [reflexivity |]. simpl in *.
  destruct (Nat.eqb_spec x y) as [-> | _]; [exfalso; apply Hx; left; reflexivity |].
  apply IH. intros H. apply Hx. right. exact H.
Qed.

Lemma rank_weights_axes : forall m, map fst (rank_weights m) = mesh_axes m.
Proof. induction m as [|[x s] m IH]; [reflexivity |]. simpl. rewrite IH. reflexivity. Qed.

Lemma digit_device_spec : forall m r x, mesh_wf m = true -> r < mesh_size m ->
  digit_device (rank_weights m) r x = device_of_rank m r x.
Proof.
  intros m r x Hm Hr. unfold digit_device.
  destruct (in_dec Nat.eq_dec x (mesh_axes m)) as [Hin | Hout].
  - destruct (rank_weights_spec m x Hm Hin) as [pre [post [E W]]]. rewrite W.
    symmetry. apply (device_digit m r pre x post Hm Hr E).
  - rewrite weight_of_notin by (rewrite rank_weights_axes; exact Hout).
    rewrite Nat.div_1_r, Nat.mod_1_r. unfold device_of_rank. rewrite set_radix_notin by exact Hout.
    reflexivity.
Qed.

Lemma set_radix_ext : forall m xs q c c', (forall y, c y = c' y) ->
  forall y, set_radix m xs q c y = set_radix m xs q c' y.
Proof.
  intros m xs. induction xs as [|x xs IH]; intros q c c' H y; simpl; [apply H |].
  apply IH. intros z. unfold set_coord. destruct (z =? x); [reflexivity | apply H].
Qed.

Lemma holder_from_ext : forall m t t' c0 c0' c c', (forall y, c0 y = c0' y) -> (forall y, c y = c' y) ->
  forall y, holder_from m t t' c0 c y = holder_from m t t' c0' c' y.
Proof.
  intros m t. induction t as [|[xs n] t IH]; intros [|[ys n'] t'] c0 c0' c c' H0 H y; simpl; try apply H.
  apply IH; [exact H0 |]. intros z.
  rewrite (radix_ext m c0 c0' ys) by (intros x _; apply H0). apply set_radix_ext, H.
Qed.

Lemma set_digits_spec : forall m xs q c, set_digits (radix_weights m xs) q c = set_radix m xs q c.
Proof. intros m xs. induction xs as [|x xs IH]; intros q c; simpl; [reflexivity | apply IH]. Qed.

Lemma radix_sized_spec : forall m xs c, radix_sized (sized m xs) c = radix m c xs.
Proof.
  intros m xs c. unfold radix_sized, sized, radix. generalize 0.
  induction xs as [|x xs IH]; intros a; simpl; [reflexivity | apply IH].
Qed.

Lemma holder_digits_spec : forall m t t' c0 c, holder_digits (holder_dims m t t') c0 c = holder_from m t t' c0 c.
Proof.
  intros m t. induction t as [|[xs n] t IH]; intros [|[ys n'] t'] c0 c; try reflexivity.
  simpl. rewrite radix_sized_spec, set_digits_spec. apply IH.
Qed.

(** The table is the holders' ranks of [device_of_rank]'s devices. *)
Lemma recv_from_table_spec : forall m t t', recv_from_table m t t'
  = map (fun r => rank m (holder m t t' (device_of_rank m r))) (seq 0 (mesh_size m)).
Proof.
  intros m t t'. unfold recv_from_table.
  assert (Hrank : forall c, radix_sized (sized m (mesh_axes m)) (holder_digits (holder_dims m t t') c c)
                            = rank m (holder m t t' c)).
  { intros c. rewrite holder_digits_spec, radix_sized_spec. reflexivity. }
  destruct (mesh_wf m) eqn:Hm; apply map_ext_in; intros r Hr; rewrite Hrank; [| reflexivity].
  apply in_seq in Hr. apply rank_ext. intros x _. unfold holder.
  apply holder_from_ext; intros y; apply digit_device_spec; (assumption || lia).
Qed.

Lemma nth_map_seq : forall (f : nat -> nat) n r, r < n -> nth r (map f (seq 0 n)) 0 = f r.
Proof.
  intros f n r Hr. rewrite nth_indep with (d' := f 0) by (rewrite map_length, seq_length; exact Hr).
  rewrite map_nth, seq_nth by exact Hr. reflexivity.
Qed.

(** A permute's table: rank [r] receives from the rank the wire map reads
    every element of its new array from. *)
Theorem lower_recv_from : forall m src tgt p rep elem, check m src tgt p = OK rep ->
  forall c t'', In c (lower m elem src p) -> cl_op c = Some (AllPermute t'') ->
  forall r l, r < mesh_size m ->
  nth r (cl_recv_from c) 0 = rank m (fst (wire m (cl_ty c) (AllPermute t'') (device_of_rank m r) l)).
Proof.
  intros m src tgt p rep elem Hc c t'' Hin Hk r l Hr.
  destruct (lower_steps_of_check m src tgt p rep elem c Hc Hin ltac:(congruence))
    as [u [k' [u' [i [o [-> _]]]]]].
  simpl in Hk |- *. injection Hk as Ek. subst k'. rewrite recv_from_table_spec.
  apply nth_map_seq, Hr.
Qed.

(** ** The printed call's index arithmetic is the wire map *)

Lemma rank_set_coord : forall m c a v pre post, mesh_wf m = true -> mesh_axes m = pre ++ a :: post ->
  rank m (set_coord c a v) + c a * prod (map (axis_size m) post)
  = rank m c + v * prod (map (axis_size m) post).
Proof.
  intros m c a v pre post Hm Ea. pose proof (mesh_wf_NoDup m Hm) as Hnd. rewrite Ea in Hnd.
  pose proof (NoDup_remove_2 _ _ _ Hnd) as Hna.
  assert (Hpre : ~ In a pre) by (intros H; apply Hna, in_or_app; left; exact H).
  assert (Hpost : ~ In a post) by (intros H; apply Hna, in_or_app; right; exact H).
  unfold rank. rewrite Ea, !radix_app_gen, !radix_cons, !radix_set_coord_notin by assumption.
  rewrite set_coord_same. lia.
Qed.

(** Member [k] of rank [r]'s group along [a] is [r]'s device with coordinate [k] on [a]. *)
Lemma member_rank : forall m r a k pre post, mesh_wf m = true -> r < mesh_size m ->
  mesh_axes m = pre ++ a :: post ->
  rank m (set_coord (device_of_rank m r) a k)
  = group_member r (prod (map (axis_size m) post), axis_size m a) k.
Proof.
  intros m r a k pre post Hm Hr Ea. unfold group_member, group_index. simpl.
  rewrite <- (device_digit m r pre a post Hm Hr Ea).
  pose proof (rank_set_coord m (device_of_rank m r) a k pre post Hm Ea) as Hk.
  pose proof (rank_set_coord m (device_of_rank m r) a 0 pre post Hm Ea) as H0.
  rewrite rank_device_of_rank in Hk, H0 by assumption. lia.
Qed.

Lemma step_rank_wire : forall m elem u u' k i o r l, mesh_wf m = true -> ty_wf m u = true ->
  step_type m u k = OK u' -> r < mesh_size m ->
  let w := wire m u k (device_of_rank m r) l in
  rank_wire (lower_step m elem u u' k i o) r l = (rank m (fst w), snd w).
Proof.
  intros m elem u u' k i o r l Hm Hu Hst Hr w. unfold w. clear w.
  destruct (step_axis u k) as [x|] eqn:Ex.
  - destruct (rank_weights_spec m x Hm (step_axis_in_mesh m u k u' x Hu Hst Ex)) as [pre [post [Ea Ew]]].
    unfold rank_wire, lower_step. cbn [cl_op cl_group cl_shape cl_ty]. rewrite Ex. cbn [option_map].
    unfold axis_group. rewrite Ew.
    destruct k as [d y | d | s u2 | t'']; simpl in Ex; try discriminate; injection Ex as <-;
      unfold wire; cbn [fst snd]; rewrite !nth_local_shape; fold (dim_of u d) || fold (dim_of u s);
      try fold (dim_of u u2).
    + unfold group_index. cbn [fst snd]. rewrite <- (device_digit m r pre y post Hm Hr Ea).
      rewrite rank_device_of_rank by assumption. reflexivity.
    + rewrite (member_rank m r _ _ pre post Hm Hr Ea). reflexivity.
    + rewrite (member_rank m r _ _ pre post Hm Hr Ea). unfold group_index. cbn [fst snd].
      rewrite <- (device_digit m r pre _ post Hm Hr Ea). reflexivity.
  - destruct k as [d y | d | s u2 | t'']; simpl in Ex; try discriminate.
    unfold rank_wire, lower_step. cbn [cl_op cl_group cl_recv_from].
    rewrite recv_from_table_spec, nth_map_seq by exact Hr. reflexivity.
Qed.

(** For every call of an accepted plan and every rank, [rank_wire] (what the
    runtime computes from the printed group, shape, dimensions and table)
    reads each element from the rank and index the semantics' wire map says. *)
Theorem lower_rank_wire : forall m src tgt p rep elem, check m src tgt p = OK rep ->
  forall c k r l, In c (lower m elem src p) -> cl_op c = Some k -> r < mesh_size m ->
  let w := wire m (cl_ty c) k (device_of_rank m r) l in
  rank_wire c r l = (rank m (fst w), snd w).
Proof.
  intros m src tgt p rep elem Hc c k r l Hin Hk Hr.
  destruct (check_wf m src tgt p rep Hc) as [Hm _].
  destruct (lower_steps_of_check m src tgt p rep elem c Hc Hin ltac:(congruence))
    as [u [k' [u' [i [o [-> [Hst Hu]]]]]]].
  simpl in Hk. injection Hk as Ek. subst k'. apply step_rank_wire; assumption.
Qed.

(** ** The program as the runtime runs it, from the printed calls alone *)

Lemma holds_ext : forall A m t (g : list nat -> A) (st st' : state A),
  (forall r l, r < mesh_size m -> st' r l = st r l) -> holds m t g st -> holds m t g st'.
Proof. intros A m t g st st' E H r Hr l Hl. rewrite E by exact Hr. apply H; assumption. Qed.

Lemma lower_steps_rank_correct : forall p m elem t tgt inb A (g : list nat -> A) (bs : buffers A),
  mesh_wf m = true -> ty_wf m t = true -> p <> [] -> run_type m t p = Some tgt ->
  holds m t g (bs inb) -> holds m tgt g (interp_rank (lower_steps m elem t p inb) bs BDst).
Proof.
  induction p as [|k p IH]; intros m elem t tgt inb A g bs Hm Ht Hp Hrun Hh; [contradiction |].
  simpl in Hrun. simpl lower_steps.
  destruct (step_type m t k) as [t'|] eqn:Hs; [| discriminate].
  set (c := lower_step m elem t t' k inb (match p with [] => BDst | _ => next_work inb end)).
  assert (Hstep : holds m t' g (fun r l => let '(r', l') := rank_wire c r l in bs (cl_in c) r' l')).
  { apply (holds_ext A m t' g (exec_step m t k (bs inb))).
    - intros r l Hr. unfold c. rewrite (step_rank_wire m elem t t' k _ _ r l Hm Ht Hs Hr).
      unfold exec_step. cbn [cl_in lower_step]. destruct (wire m t k (device_of_rank m r) l). reflexivity.
    - apply step_sound; assumption. }
  change (interp_rank (c :: lower_steps m elem t' p (cl_out c)) bs BDst)
    with (interp_rank (lower_steps m elem t' p (cl_out c)) (run_call_rank bs c) BDst).
  destruct p as [|k2 p2].
  - simpl in Hrun. injection Hrun as <-. exact Hstep.
  - apply (IH m elem t' tgt); [exact Hm | apply (step_type_wf m t k t' Hm Ht Hs) | discriminate | exact Hrun |].
    unfold run_call_rank, write_buffer. rewrite buffer_beq_refl. exact Hstep.
Qed.

(** The headline in rank space: run as the runtime's contract says on the
    printed calls, every rank's destination ends with its target box. *)
Theorem lower_rank_correct : forall m src tgt p rep elem, check m src tgt p = OK rep ->
  forall A (g : list nat -> A) (st other : state A), holds m src g st ->
  holds m tgt g (interp_rank (lower m elem src p) (initial_buffers st other) BDst).
Proof.
  intros m src tgt p rep elem Hc A g st other Hst.
  destruct (check_wf m src tgt p rep Hc) as [Hm [Hs _]].
  pose proof (run_type_check _ _ _ _ _ Hc) as Hrun.
  destruct p as [|k p].
  - simpl in Hrun. injection Hrun as <-. exact Hst.
  - exact (lower_steps_rank_correct (k :: p) m elem src tgt BSrc A g (initial_buffers st other)
             Hm Hs ltac:(discriminate) Hrun Hst).
Qed.

(** ** Scratch *)

Lemma all_gather_local_size : forall m t d t', mesh_wf m = true -> ty_wf m t = true ->
  step_type m t (AllGather d) = OK t' ->
  local_size m t' = local_size m t * axis_size m (last_axis (fst (dim_of t d))).
Proof.
  intros m t d t' Hm Ht Hk.
  destruct (all_gather_type_inv m t d t' Hm Ht Hk) as [ys [a [n [Hd [-> [_ [Hext _]]]]]]].
  pose proof (nth_error_lt _ _ _ _ Hd) as Hlt.
  assert (Hdim : dim_of t d = (ys ++ [a], n)) by (apply dim_of_nth_error; exact Hd).
  rewrite Hdim. simpl fst. unfold last_axis. rewrite last_axis_app.
  unfold local_size. rewrite local_shape_set_dim.
  rewrite prod_upd by (rewrite length_local_shape; exact Hlt).
  rewrite (prod_nth (local_shape m t) d) by (rewrite length_local_shape; exact Hlt).
  rewrite nth_local_shape. fold (dim_of t d). rewrite Hdim. rewrite <- Nat.mul_assoc. f_equal. exact Hext.
Qed.

(** The fast path's scratch is never more than the larger of the arrays
    a call reads and writes. *)
Lemma step_scratch_le : forall m elem u u' k i o, mesh_wf m = true -> ty_wf m u = true ->
  step_type m u k = OK u' ->
  cl_scratch (lower_step m elem u u' k i o) <= Nat.max (local_size m u * elem) (local_size m u' * elem).
Proof.
  intros m elem u u' k i o Hm Hu Hk. unfold lower_step. simpl.
  destruct (step_axis u k) as [x|] eqn:Ex; simpl; [| lia].
  destruct (rank_weights_spec m x Hm (step_axis_in_mesh m u k u' x Hu Hk Ex)) as [pre [post [_ Ew]]].
  unfold axis_group. rewrite Ew. unfold step_scratch.
  fold (local_size m u). destruct k as [d y | d | s' u'' | t'']; [lia | | | discriminate].
  - unfold all_gather_scratch. rewrite (all_gather_local_size m u d u' Hm Hu Hk).
    simpl in Ex. injection Ex as <-. fold (local_size m u).
    destruct (axis_size m (last_axis (fst (dim_of u d))) <=? 1); [lia |].
    destruct (outer_count (local_shape m u) d =? 1); [lia |]. fold (local_size m u). nia.
  - unfold all_to_all_scratch. fold (local_size m u).
    destruct (axis_size m x <=? 1); [lia |]. destruct (_ || _); lia.
Qed.

Lemma lower_scratch_le : forall m src tgt p rep elem c, check m src tgt p = OK rep ->
  In c (lower m elem src p) -> cl_scratch c <= Nat.max (cl_in_bytes c) (cl_out_bytes c).
Proof.
  intros m src tgt p rep elem c Hc Hin.
  destruct (check_wf m src tgt p rep Hc) as [Hm _].
  destruct (cl_op c) as [k|] eqn:Hop.
  - destruct (lower_steps_of_check m src tgt p rep elem c Hc Hin ltac:(congruence))
      as [u [k' [u' [i [o [-> [Hst Hu]]]]]]].
    apply (step_scratch_le m elem u u' k' i o Hm Hu Hst).
  - destruct p as [|k0 p].
    + destruct Hin as [<- | []]. simpl. lia.
    + destruct (check_wf m src tgt (k0 :: p) rep Hc) as [_ [Hs _]].
      destruct (lower_steps_steps (k0 :: p) m elem src BSrc c Hm Hs Hin)
        as [u [k' [u' [i [o [-> _]]]]]]. discriminate.
Qed.

(** ** Live bytes *)

Lemma lower_steps_sizes : forall p m elem t inb c, In c (lower_steps m elem t p inb) ->
  exists t1 t2, In t1 (trace m t p) /\ In t2 (trace m t p)
    /\ cl_in_bytes c = local_size m t1 * elem /\ cl_out_bytes c = local_size m t2 * elem.
Proof.
  induction p as [|k p IH]; intros m elem t inb c Hin; [destruct Hin |].
  simpl in Hin. simpl trace. destruct (step_type m t k) as [t'|]; [| destruct Hin].
  destruct Hin as [<- | Hin].
  - exists t, t'. repeat split; [left; reflexivity | right; apply trace_head].
  - destruct (IH m elem t' _ c Hin) as [t1 [t2 [H1 [H2 E]]]].
    exists t1, t2. repeat split; try (right; assumption); apply E.
Qed.

Lemma lower_sizes_le : forall m elem src p B c,
  (forall t, In t (trace m src p) -> local_size m t <= B) -> In c (lower m elem src p) ->
  cl_in_bytes c <= B * elem /\ cl_out_bytes c <= B * elem.
Proof.
  intros m elem src p B c HB Hc. destruct p as [|k p].
  - destruct Hc as [<- | []]. simpl. pose proof (HB src (trace_head m src [])). nia.
  - destruct (lower_steps_sizes (k :: p) m elem src BSrc c Hc) as [t1 [t2 [H1 [H2 [E1 E2]]]]].
    rewrite E1, E2. split; apply Nat.mul_le_mono_r; apply HB; assumption.
Qed.

(** [live_bytes] is bounded by the sizes along the plan: [B] is any bound on
    the local arrays of the execution; with the scratch of each call at most
    the larger array it touches, by [3 * B] arrays besides source and target. *)
Lemma live_bytes_le : forall m elem src tgt p B,
  (forall t, In t (trace m src p) -> local_size m t <= B) ->
  live_bytes m elem src tgt p
  <= (local_size m src + local_size m tgt + 2 * B) * elem + scratch_bytes (lower m elem src p).
Proof.
  intros m elem src tgt p B HB. unfold live_bytes, calls_live_bytes. apply list_max_le, Forall_forall.
  intros n Hn. apply in_map_iff in Hn. destruct Hn as [c [<- Hc]].
  assert (Hs : cl_scratch c <= scratch_bytes (lower m elem src p))
    by (apply in_list_max, in_map; exact Hc).
  destruct (lower_sizes_le m elem src p B c HB Hc) as [Hi Ho].
  unfold call_live. destruct (in_workspace (cl_in c)), (in_workspace (cl_out c)); nia.
Qed.

Lemma live_bytes_le_sizes : forall m src tgt p rep elem B, check m src tgt p = OK rep ->
  (forall t, In t (trace m src p) -> local_size m t <= B) ->
  live_bytes m elem src tgt p <= (local_size m src + local_size m tgt + 3 * B) * elem.
Proof.
  intros m src tgt p rep elem B Hc HB. unfold live_bytes, calls_live_bytes. apply list_max_le, Forall_forall.
  intros n Hn. apply in_map_iff in Hn. destruct Hn as [c [<- Hin]].
  pose proof (lower_scratch_le m src tgt p rep elem c Hc Hin) as Hs.
  destruct (lower_sizes_le m elem src p B c HB Hin) as [Hi Ho].
  unfold call_live. destruct (in_workspace (cl_in c)), (in_workspace (cl_out c)); nia.
Qed.

Theorem lower_live_bytes : forall m src tgt p rep elem, check m src tgt p = OK rep ->
  (forall c, In c (lower m elem src p) ->
     call_live (local_size m src * elem) (local_size m tgt * elem) c <= live_bytes m elem src tgt p)
  /\ live_bytes m elem src tgt p
     <= (local_size m src + local_size m tgt + 2 * rp_peak rep) * elem
        + scratch_bytes (lower m elem src p)
  /\ live_bytes m elem src tgt p <= (local_size m src + local_size m tgt + 3 * rp_peak rep) * elem.
Proof.
  intros m src tgt p rep elem Hc.
  assert (HB : forall t, In t (trace m src p) -> local_size m t <= rp_peak rep).
  { intros t Ht. rewrite (check_peak m src tgt p rep Hc). apply in_list_max, in_map, Ht. }
  split; [| split].
  - intros c Hin. unfold live_bytes, calls_live_bytes. apply in_list_max, in_map, Hin.
  - apply live_bytes_le, HB.
  - apply (live_bytes_le_sizes m src tgt p rep elem _ Hc HB).
Qed.

(** ** The workspace is exactly what the calls use *)

(** Every workspace array a call reads was written by a call of the list,
    with the size it is read at. *)
Definition reads_written (cs : list call) : Prop :=
  forall c, In c cs -> in_workspace (cl_in c) = true ->
  exists c', In c' cs /\ cl_out c' = cl_in c /\ cl_out_bytes c' = cl_in_bytes c.

Lemma lower_steps_reads : forall p m elem t inb,
  reads_chained cl_in cl_out cl_in_bytes cl_out_bytes inb (local_size m t * elem) (lower_steps m elem t p inb).
Proof.
  induction p as [|k p IH]; intros m elem t inb; simpl; [apply reads_chained_nil |].
  destruct (step_type m t k) as [t'|]; [| apply reads_chained_nil].
  apply reads_chained_cons; [reflexivity | reflexivity | apply IH].
Qed.

Lemma lower_reads_written : forall m elem src p, reads_written (lower m elem src p).
Proof.
  intros m elem src [|k p] c Hin Hw.
  - destruct Hin as [<- | []]. discriminate.
  - destruct (lower_steps_reads (k :: p) m elem src BSrc c Hin) as [[E _] | H].
    + rewrite E in Hw. discriminate.
    + exact H.
Qed.

Lemma written_le : forall b cs c, In c cs -> cl_out c = b ->
  cl_out_bytes c <= list_max (map (written_bytes b) cs).
Proof. exact (written_at_le buffer_beq internal_buffer_dec_lb cl_out cl_out_bytes). Qed.

(** A part of the workspace that is not empty is as large as some call's use. *)
Lemma written_attained : forall b cs, list_max (map (written_bytes b) cs) = 0
  \/ exists c, In c cs /\ cl_out c = b /\ cl_out_bytes c = list_max (map (written_bytes b) cs).
Proof. exact (written_at_attained buffer_beq internal_buffer_dec_bl cl_out cl_out_bytes). Qed.

Lemma workspace_exact : forall cs, reads_written cs ->
  workspace_bytes cs = list_max (map (call_extent cs) cs).
Proof.
  intros cs Hrw. unfold workspace_bytes, scratch_offset, pong_offset.
  set (P := ping_bytes cs). set (Q := pong_bytes cs). set (S := scratch_bytes cs).
  assert (Htouch : forall c b n, In c cs -> in_workspace b = true ->
            (exists c', In c' cs /\ cl_out c' = b /\ cl_out_bytes c' = n) ->
            work_offset cs b + n <= P + Q).
  { intros c b n _ Hb [c' [Hc' [Eb En]]]. rewrite <- En.
    destruct b; try discriminate; simpl; unfold pong_offset; fold P.
    - pose proof (written_le BPing cs c' Hc' Eb). fold (ping_bytes cs) in H. fold P in H. lia.
    - pose proof (written_le BPong cs c' Hc' Eb). fold (pong_bytes cs) in H. fold Q in H. lia. }
  apply Nat.le_antisymm.
  - destruct (Nat.eq_dec S 0) as [HS | HS].
    + destruct (written_attained BPong cs) as [HQ | [c [Hc [Eb En]]]].
      * destruct (written_attained BPing cs) as [HP | [c [Hc [Eb En]]]].
        -- fold (ping_bytes cs) (pong_bytes cs) in *. fold P Q in HP, HQ. lia.
        -- transitivity (call_extent cs c); [| apply in_list_max, in_map, Hc].
           fold (ping_bytes cs) (pong_bytes cs) in *. fold P Q in HQ, En.
           unfold call_extent. rewrite Eb. simpl. lia.
      * transitivity (call_extent cs c); [| apply in_list_max, in_map, Hc].
        fold (pong_bytes cs) in *. fold Q in En.
        unfold call_extent. rewrite Eb. simpl. unfold pong_offset. fold P. lia.
    + destruct (list_max_attained (map cl_scratch cs)) as [E | Hin];
        [fold (scratch_bytes cs) in E; fold S in E; contradiction |].
      apply in_map_iff in Hin. destruct Hin as [c [Ec Hc]].
      transitivity (call_extent cs c); [| apply in_list_max, in_map, Hc].
      fold (scratch_bytes cs) in Ec. fold S in Ec. unfold call_extent, scratch_offset.
      fold P Q. rewrite Ec. destruct (S =? 0) eqn:E; [apply Nat.eqb_eq in E; lia | lia].
  - apply list_max_le, Forall_forall. intros n Hn. apply in_map_iff in Hn.
    destruct Hn as [c [<- Hc]]. unfold call_extent, scratch_offset. fold P Q.
    assert (Hs : cl_scratch c <= S) by (apply in_list_max, in_map, Hc).
    assert (Hin : (if in_workspace (cl_in c) then work_offset cs (cl_in c) + cl_in_bytes c else 0)
                  <= P + Q).
    { destruct (in_workspace (cl_in c)) eqn:W; [| lia].
      apply (Htouch c); [exact Hc | exact W | apply Hrw; assumption]. }
    assert (Hout : (if in_workspace (cl_out c) then work_offset cs (cl_out c) + cl_out_bytes c else 0)
                   <= P + Q).
    { destruct (in_workspace (cl_out c)) eqn:W; [| lia].
      apply (Htouch c); [exact Hc | exact W | exists c; auto]. }
    destruct (cl_scratch c =? 0); lia.
Qed.

(** The workspace the header asks for is the furthest byte of it some call uses. *)
Theorem lower_workspace_exact : forall m elem src p,
  let cs := lower m elem src p in
  workspace_bytes cs = list_max (map (call_extent cs) cs).
Proof. intros m elem src p cs. apply workspace_exact, lower_reads_written. Qed.

(** ** A plan with a strategy *)

(** The exchange's messages, read by the receiver, are the exchange's data
    movement: on every element of every target box, [message_wire] reads
    the rank and index [exchange_wire] reads with the command's holder
    choice. *)
Theorem lower_exchange_wire : forall S T r tb l, layouts_wf S T = true -> pl_box T r = Some tb ->
  in_box (box_shape tb) l ->
  message_wire (lower_exchange S T) r l = exchange_wire S T (spread_holder S T) r l.
Proof.
  intros S T r tb l Hwf Hb Hl. unfold message_wire, exchange_wire. cbn [xc_to xc_from xc_recv lower_exchange].
  rewrite Hb. set (i := box_global tb l).
  destruct (recv_messages_exact S T r tb Hwf Hb) as [Hsent [Hcover _]].
  destruct (find (fun msg => box_has (snd msg) i) (recv_messages S T r)) as [[s c]|] eqn:Hf.
  - apply find_some in Hf. destruct Hf as [Hin Hc]. cbn [snd] in Hc.
    destruct (Hsent s c i Hin Hc) as [_ ->]. reflexivity.
  - exfalso. destruct (Hcover i (box_global_has tb l Hl)) as [s [c [Hin Hc]]].
    pose proof (find_none _ _ Hf (s, c) Hin) as Hn. cbn beta in Hn. cbn [snd] in Hn. congruence.
Qed.

Lemma lower_exchange_correct : forall S T A (g : list nat -> A) (st : state A), layouts_wf S T = true ->
  pl_holds S g st -> pl_holds T g (run_wire (message_wire (lower_exchange S T)) st).
Proof.
  intros S T A g st Hwf Hst r b Hb l Hl.
  pose proof (exchange_sound S T (spread_holder S T) A g st (proj1 (spread_holder_ok S T Hwf)) Hst r b Hb l Hl)
    as Hx.
  unfold exchange, run_wire in Hx |- *. rewrite (lower_exchange_wire S T r b l Hwf Hb Hl). exact Hx.
Qed.

(** Whatever the strategy, the lowered program of a checked plan leaves
    every rank's target box in its destination and keeps its source; a
    hybrid's first part leaves the intermediate layout's boxes in the
    workspace, which its second part reads as its source. *)
Theorem lower_splan_correct : forall S T sp rep elem, xcheck S T sp = OK rep ->
  forall A (g : list nat -> A) (st other : state A), pl_holds S g st ->
  let bs := run_program (lower_splan elem S T sp) (initial_buffers st other) in
  pl_holds T g (bs BDst) /\ bs BSrc = st.
Proof.
  intros S T sp. revert S T. induction sp as [rf p| |mid a IHa b IHb];
    intros S T rep elem H A g st other Hst bs; unfold bs; simpl in H |- *.
  - split.
    + pose proof (xcheck_correct S T (ByCollectives rf p) rep H A g st Hst) as Hx. simpl in Hx.
      destruct (even_problem S T); [| discriminate]. destruct (refine_ok (ly_m S) rf); [| discriminate].
      destruct (check _ _ _ p) as [rep'|e] eqn:Hc; [| discriminate].
      rewrite (lower_correct _ elem _ _ p A st other (run_type_check _ _ _ _ _ Hc)). exact Hx.
    + rewrite interp_keeps; [reflexivity |]. intros c Hin. apply (lower_buffers _ _ _ _ c Hin).
  - destruct (layouts_wf S T) eqn:Hwf; [| discriminate]. split; [| reflexivity].
    apply lower_exchange_correct; assumption.
  - destruct (list_eqb _ _); [| discriminate].
    destruct (xcheck S mid a) as [ra|] eqn:Ha; [| discriminate].
    destruct (xcheck mid T b) as [rb|] eqn:Hb; [| discriminate].
    destruct (IHa S mid ra elem Ha A g st other Hst) as [Hmid _].
    destruct (IHb mid T rb elem Hb A g _ (initial_buffers st other BDst) Hmid) as [Hdst _].
    unfold write_buffer. simpl. split; [exact Hdst | reflexivity].
Qed.

(** ** Live bytes and the workspace *)

(** What a rank holds alive never exceeds what it allocates: its source,
    its destination and the workspace. *)
Theorem live_bytes_le_allocated : forall m elem src tgt p,
  live_bytes m elem src tgt p
  <= local_size m src * elem + local_size m tgt * elem + workspace_bytes (lower m elem src p).
Proof.
  intros m elem src tgt p. set (cs := lower m elem src p).
  unfold live_bytes, calls_live_bytes. fold cs. apply list_max_le, Forall_forall.
  intros n Hn. apply in_map_iff in Hn. destruct Hn as [c [<- Hc]].
  assert (Hs : cl_scratch c <= scratch_bytes cs) by (apply in_list_max, in_map, Hc).
  assert (Hsize : forall b n, (b = cl_in c /\ n = cl_in_bytes c \/ b = cl_out c /\ n = cl_out_bytes c) ->
            in_workspace b = true -> n <= list_max (map (written_bytes b) cs)).
  { intros b n' [[-> ->] | [-> ->]] Hw.
    - destruct (lower_reads_written m elem src p c Hc Hw) as [c' [Hc' [Eo Eb]]].
      rewrite <- Eb. apply (written_le _ cs c' Hc' Eo).
    - apply (written_le _ cs c Hc eq_refl). }
  set (share := fun b => (if buffer_beq b BPing then ping_bytes cs else 0)
                         + (if buffer_beq b BPong then pong_bytes cs else 0)).
  assert (HI : (if in_workspace (cl_in c) then cl_in_bytes c else 0) <= share (cl_in c)).
  { unfold share. destruct (cl_in c) eqn:E; simpl; try lia;
      try rewrite Nat.add_0_r; apply Hsize; auto. }
  assert (HO : (if in_workspace (cl_out c) then cl_out_bytes c else 0) <= share (cl_out c)).
  { unfold share. destruct (cl_out c) eqn:E; simpl; try lia;
      try rewrite Nat.add_0_r; apply Hsize; auto. }
  assert (Hsum : share (cl_in c) + share (cl_out c) <= ping_bytes cs + pong_bytes cs).
  { destruct (lower_buffers m elem src p c Hc) as [_ Hio]. unfold share.
    destruct (cl_in c), (cl_out c); simpl; lia || congruence. }
  unfold call_live, workspace_bytes, scratch_offset. lia.
Qed.

(** ** Live bytes and the workspace, per strategy *)

Lemma box_bytes_le : forall L elem w, box_bytes L elem w <= largest_box L * elem.
Proof.
  intros L elem w. unfold box_bytes.
  destruct (pl_box L w) as [b|] eqn:Hb; [| lia]. apply Nat.mul_le_mono_r.
  unfold pl_box in Hb. destruct (index_of w (pm_ranks (ly_mesh L))) as [k|] eqn:Hk; [| discriminate].
  destruct (index_of_Some _ _ _ Hk) as [Hlen Hnth].
  assert (Hin : In w (pm_ranks (ly_mesh L))) by (rewrite <- Hnth; apply nth_In; exact Hlen).
  rewrite largest_box_pl. eapply Nat.le_trans; [| apply (proj2 (fold_max_ge _ _ 0) w Hin)].
  cbv beta. unfold pl_box. rewrite Hk. inversion Hb. reflexivity.
Qed.

(** What the stated live bytes cover, per part of a plan: for the
    collectives every call (source, destination, the workspace arrays it
    touches, its scratch); for the exchange every world rank (its source
    box and its target box), and there the figure is exactly [(largest
    source box + largest target box) * elem]; for a hybrid each part's
    figure, with the user's array that part does not touch (the
    destination during the first, the source during the second) on top. *)
Fixpoint live_covered (elem : nat) (S T : layout) (sp : splan) : Prop :=
  match sp with
  | ByCollectives rf p =>
      let m := refine_mesh rf (ly_m S) in
      forall c, In c (lower m elem (refine_ty rf (ly_ty S)) p) ->
      call_live (local_size m (refine_ty rf (ly_ty S)) * elem) (local_size m (refine_ty rf (ly_ty T)) * elem) c
      <= splan_live_bytes elem S T sp
  | ByExchange =>
      splan_live_bytes elem S T sp = (largest_box S + largest_box T) * elem
      /\ forall w, exchange_live elem S T w <= splan_live_bytes elem S T sp
  | ByThen mid a b =>
      live_covered elem S mid a /\ live_covered elem mid T b
      /\ splan_live_bytes elem S mid a + largest_box T * elem <= splan_live_bytes elem S T sp
      /\ splan_live_bytes elem mid T b + largest_box S * elem <= splan_live_bytes elem S T sp
  end.

Theorem lower_splan_live_bytes : forall elem S T sp, live_covered elem S T sp.
Proof.
  intros elem S T sp. revert S T. induction sp as [rf p| |mid a IHa b IHb]; intros S T; simpl.
  - intros c Hc. apply in_list_max, in_map, Hc.
  - unfold exchange_live_bytes. rewrite largest_boxes_spec. simpl. split; [reflexivity |].
    intros w. unfold exchange_live. pose proof (box_bytes_le S elem w). pose proof (box_bytes_le T elem w). lia.
  - split; [apply IHa | split; [apply IHb | lia]].
Qed.

(** The workspace a program asks for is exactly what it uses: the
    furthest workspace byte of a call for the collectives
    ([lower_workspace_exact]); none for the exchange, which writes the
    destination only; for a hybrid, the largest intermediate box (the
    [mid_bytes] of [Staged], [largest_box mid * elem]) followed by the
    larger of its parts' workspaces, each exact. *)
Fixpoint program_workspace_exact (pg : program) : Prop :=
  match pg with
  | Calls m cs => program_workspace_bytes pg = list_max (map (call_extent cs) cs)
  | OneExchange x =>
      program_workspace_bytes pg = 0
      /\ forall A (bs : buffers A) b, b <> BDst -> run_program pg bs b = bs b
  | Staged n first second =>
      program_workspace_bytes pg = n + Nat.max (program_workspace_bytes first) (program_workspace_bytes second)
      /\ program_workspace_exact first /\ program_workspace_exact second
  end.

Theorem lower_splan_workspace_exact : forall elem S T sp, program_workspace_exact (lower_splan elem S T sp).
Proof.
  intros elem S T sp. revert S T. induction sp as [rf p| |mid a IHa b IHb]; intros S T; simpl.
  - apply lower_workspace_exact.
  - split; [reflexivity |]. intros A bs b Hb. unfold write_buffer.
    destruct (buffer_beq b BDst) eqn:E; [apply buffer_beq_eq in E; contradiction | reflexivity].
  - split; [reflexivity | split; [apply IHa | apply IHb]].
Qed.
