(** * Plans that mix Part 1's collectives with pending-sum steps.

    A plan over pending-sum types ([pplan]) runs Part 1 collectives on the
    type (the pending axes stay pending: a collective may not put one in the
    type) and the pending-sum steps.  [pplan_sound]: a plan that type-checks
    moves pending sums of [g] under the source to pending sums of [g] under
    the target, over any commutative monoid.  [pplan_recv_ge_bound]: a plan
    ending with no pending axis makes every rank receive at least the
    pending-sum lower bound [sum_needy]. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Semanticsproof Trafficproof Layout Layoutproof
  Lowerbound Sums Sumsproof Sumexchange Sumlowerbound Sumslift Sumplanbound.

(** ** The model *)

Inductive pstep : Type :=
| PCollective (k : collective)
| PSum (k : sum_step).

Inductive pstep_error : Type :=
| CollectiveError (e : step_error)
| SumError (e : sum_error)
| MovesPending (k : collective).   (** the collective's new type uses a pending axis *)

Definition pstep_type (m : mesh) (p : pty) (s : pstep) : res pstep_error pty :=
  match s with
  | PCollective k =>
      match step_type m (fst p) k with
      | OK t' => if pty_wf m (t', snd p) then OK (t', snd p) else Error (MovesPending k)
      | Error e => Error (CollectiveError e)
      end
  | PSum k =>
      match sum_step_type m p k with
      | OK p' => OK p'
      | Error e => Error (SumError e)
      end
  end.

Definition exec_pstep (M : cmonoid) (m : mesh) (p : pty) (s : pstep)
    (st : state (carrier M)) : state (carrier M) :=
  match s with
  | PCollective k => exec_step m (fst p) k st
  | PSum k => exec_sum_step M m p k st
  end.

Definition pstep_received (m : mesh) (p : pty) (s : pstep) (r : nat) : nat :=
  match s with
  | PCollective k => received m (fst p) k r
  | PSum k => sum_received m p k r
  end.

Fixpoint pplan_type (m : mesh) (p : pty) (ss : list pstep) : res pstep_error pty :=
  match ss with
  | [] => OK p
  | s :: ss' =>
      match pstep_type m p s with
      | OK p' => pplan_type m p' ss'
      | Error e => Error e
      end
  end.

Fixpoint exec_pplan (M : cmonoid) (m : mesh) (p : pty) (ss : list pstep)
    (st : state (carrier M)) : state (carrier M) :=
  match ss with
  | [] => st
  | s :: ss' =>
      match pstep_type m p s with
      | OK p' => exec_pplan M m p' ss' (exec_pstep M m p s st)
      | Error _ => st
      end
  end.

(** Elements rank [r] receives over the whole plan. *)
Fixpoint pplan_received (m : mesh) (p : pty) (ss : list pstep) (r : nat) : nat :=
  match ss with
  | [] => 0
  | s :: ss' =>
      match pstep_type m p s with
      | OK p' => pstep_received m p s r + pplan_received m p' ss' r
      | Error _ => 0
      end
  end.

(** The closed form of [pstep_received] (proven equal), [p'] the type after the step. *)
Definition pstep_recv_count (m : mesh) (p p' : pty) (s : pstep) (r : nat) : nat :=
  match s with
  | PCollective k => recv_count m (fst p) k r
  | PSum k => sum_recv_count m p' k
  end.

(** ** Soundness *)

Section Plans.
Variable m : mesh.
Hypothesis Hm : mesh_wf m = true.

Lemma pstep_type_wf : forall p s p', pty_wf m p = true -> pstep_type m p s = OK p' -> pty_wf m p' = true.
Proof.
  intros p [k | k] p' Hw Hk; simpl in Hk.
  - destruct (step_type m (fst p) k) as [t'|]; [| discriminate].
    destruct (pty_wf m (t', snd p)) eqn:E; [| discriminate]. inversion Hk. subst. exact E.
  - destruct (sum_step_type m p k) as [p1|] eqn:E; [| discriminate]. inversion Hk. subst.
    eapply sum_step_type_wf; eassumption.
Qed.

Theorem pplan_sound : forall M ss p p' g (st : state (carrier M)),
  pty_wf m p = true -> pplan_type m p ss = OK p' ->
  sholds M m p g st -> sholds M m p' g (exec_pplan M m p ss st).
Proof.
  intros M ss. induction ss as [|s ss IH]; intros p p' g st Hw Hk Hst; simpl in *.
  - inversion Hk. subst. exact Hst.
  - destruct (pstep_type m p s) as [p1|] eqn:Hs; [| discriminate].
    apply (IH p1); [eapply pstep_type_wf; eassumption | exact Hk |].
    destruct s as [k | k]; simpl in Hs |- *.
    + destruct (step_type m (fst p) k) as [t'|] eqn:Hk'; [| discriminate].
      destruct (pty_wf m (t', snd p)) eqn:E; [| discriminate]. inversion Hs. subst p1.
      destruct p as [t ps]. simpl in *. eapply collective_pending_sound; eassumption.
    + destruct (sum_step_type m p k) as [p2|] eqn:E; [| discriminate]. inversion Hs. subst p2.
      eapply sum_step_sound; eassumption.
Qed.

Theorem pstep_received_closed_form : forall p s p' r, pty_wf m p = true -> r < mesh_size m ->
  pstep_type m p s = OK p' -> pstep_received m p s r = pstep_recv_count m p p' s r.
Proof.
  intros p [k | k] p' r Hw Hr Hs; simpl in Hs |- *.
  - destruct (step_type m (fst p) k) as [t'|] eqn:Hk; [| discriminate].
    destruct p as [t ps]. destruct (pty_wf_elim m t ps Hw) as [Ht _].
    eapply received_closed_form; eassumption.
  - destruct (sum_step_type m p k) as [p2|] eqn:E; [| discriminate]. inversion Hs. subst p2.
    apply sum_received_exact; assumption.
Qed.

(** ** The lower bound *)

Definition pstep_map (p : pty) (s : pstep) : sum_map :=
  match s with
  | PCollective k => fun r l => [collective_wire m (fst p) k r l]
  | PSum k => sum_step_map m p k
  end.

Fixpoint pplan_moves (p : pty) (ss : list pstep) : sum_moves :=
  match ss with
  | [] => []
  | s :: ss' =>
      match pstep_type m p s with
      | OK p' => (pstep_map p s, pl_shapes (even_layout m (fst p'))) :: pplan_moves p' ss'
      | Error _ => []
      end
  end.

Lemma flat_map_single : forall A B (f : A -> B) xs, flat_map (fun x => [f x]) xs = map f xs.
Proof. intros A B f xs. induction xs as [|x xs IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma run_pplan_moves : forall M ss p (st : state (carrier M)) r l,
  run_sum_moves M (pplan_moves p ss) st r l = exec_pplan M m p ss st r l.
Proof.
  intros M ss. induction ss as [|s ss IH]; intros p st r l; simpl; [reflexivity |].
  destruct (pstep_type m p s) as [p'|]; simpl; [| reflexivity].
  rewrite <- IH. apply run_sum_moves_ext. intros r' l'. unfold run_sum_map.
  destruct s as [k | k]; simpl.
  - rewrite msum_single. unfold collective_wire, exec_step.
    destruct (wire m (fst p) k (device_of_rank m r') l'). reflexivity.
  - unfold sum_step_map, exec_sum_step. rewrite map_map. reflexivity.
Qed.

Lemma pplan_final_shapes : forall ss p p' sh, pplan_type m p ss = OK p' ->
  sh = pl_shapes (even_layout m (fst p)) ->
  forall r, sum_final_shapes sh (pplan_moves p ss) r = pl_shapes (even_layout m (fst p')) r.
Proof.
  induction ss as [|s ss IH]; intros p p' sh Hk Hsh r; simpl in *.
  - inversion Hk. subst. reflexivity.
  - destruct (pstep_type m p s) as [p1|]; [| discriminate]. simpl. apply (IH p1); auto.
Qed.

Lemma pplan_moves_valid : forall ss p, pty_wf m p = true ->
  sum_moves_valid (pl_shapes (even_layout m (fst p))) (pplan_moves p ss).
Proof.
  induction ss as [|s ss IH]; intros p Hw; simpl; [exact I |].
  destruct (pstep_type m p s) as [p'|] eqn:Hs; simpl; [| exact I].
  split; [| apply IH; eapply pstep_type_wf; eassumption].
  destruct s as [k | k]; simpl in Hs |- *.
  - destruct (step_type m (fst p) k) as [t'|] eqn:Hk; [| discriminate].
    destruct (pty_wf m (t', snd p)) eqn:E; [| discriminate]. inversion Hs. subst p'. simpl.
    destruct p as [t ps]. destruct (pty_wf_elim m t ps Hw) as [Ht _].
    intros r s' Hs' l Hl src [<- | []].
    exact (collective_valid_move m t k t' Hm Ht Hk r s' Hs' l Hl).
  - destruct (sum_step_type m p k) as [p2|] eqn:E; [| discriminate]. inversion Hs. subst p2.
    apply sum_step_valid; assumption.
Qed.

Lemma pplan_moves_received : forall ss p r, pty_wf m p = true -> r < mesh_size m ->
  sum_moves_received (pplan_moves p ss) r = pplan_received m p ss r.
Proof.
  induction ss as [|s ss IH]; intros p r Hw Hr; simpl; [reflexivity |].
  destruct (pstep_type m p s) as [p'|] eqn:Hs; simpl; [| reflexivity].
  assert (Hw' : pty_wf m p' = true) by (eapply pstep_type_wf; eassumption).
  f_equal; [| apply IH; assumption].
  destruct p' as [t' ps']. destruct (pty_wf_elim m t' ps' Hw') as [Ht' _].
  unfold foreign_sources, positions. rewrite pl_shapes_even by assumption. simpl.
  destruct (Nat.ltb_spec r (mesh_size m)); [| lia].
  destruct s as [k | k]; simpl in Hs |- *.
  - destruct (step_type m (fst p) k) as [t''|] eqn:Hk; [| discriminate].
    destruct (pty_wf m (t'', snd p)); [| discriminate]. inversion Hs. subst t''.
    rewrite flat_map_single, length_filter_map. unfold received. rewrite Hk. reflexivity.
  - destruct (sum_step_type m p k) as [p2|] eqn:E; [| discriminate]. inversion Hs. subst p2.
    unfold sum_received. rewrite E. unfold sum_step_map.
    rewrite flat_map_map_map, length_filter_map. reflexivity.
Qed.

(** A plan mixing collectives and pending-sum steps that ends with no
    pending axis makes every rank receive at least [sum_needy]. *)
Theorem pplan_recv_ge_bound : forall t ps ss t' r,
  pty_wf m (t, ps) = true -> pplan_type m (t, ps) ss = OK (t', []) ->
  length (sum_needy (even_layout m t) ps (even_layout m t') r) <= pplan_received m (t, ps) ss r.
Proof.
  intros t ps ss t' r Hw Hk.
  destruct (Nat.ltb_spec r (mesh_size m)) as [Hr | Hr].
  2: { unfold sum_needy. rewrite pl_box_even. destruct (Nat.ltb_spec r (mesh_size m)); [lia |]. simpl. lia. }
  assert (Hw' : pty_wf m (t', []) = true).
  { clear Hr. revert Hw Hk. generalize (t, ps). induction ss as [|s ss IH]; intros p Hw Hk; simpl in Hk.
    - inversion Hk. subst. exact Hw.
    - destruct (pstep_type m p s) as [p1|] eqn:Hs; [| discriminate].
      apply (IH p1); [eapply pstep_type_wf; eassumption | exact Hk]. }
  destruct (pty_wf_elim m t ps Hw) as [Ht _]. destruct (pty_wf_elim m t' [] Hw') as [Ht' _].
  rewrite <- pplan_moves_received by assumption.
  apply (sum_lower_bound _ _ _ (pl_shapes (even_layout m t))).
  - apply pl_pending_wf_even; assumption.
  - apply (pplan_moves_valid ss (t, ps)). exact Hw.
  - reflexivity.
  - apply (pplan_final_shapes ss (t, ps) (t', [])); [exact Hk | reflexivity].
  - intros M g st Hst. apply pl_sholds_even in Hst; [| exact Hm | exact Ht].
    pose proof (pplan_sound M ss (t, ps) (t', []) g st Hw Hk Hst) as Hend.
    apply holds_sholds_empty in Hend; [| exact Hm].
    apply (pl_holds_even m t') in Hend; [| exact Hm | exact Ht'].
    intros w b Hb l Hl. rewrite run_pplan_moves. apply (Hend w b Hb l Hl).
Qed.

End Plans.
