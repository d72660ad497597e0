(** * Correctness of the checker.

    An accepted plan moves every device's source box to its target box
    ([check_correct]); the reported types are those of the execution
    ([check_types]) and the reported peak is the largest local size along it
    ([check_peak]).  [check_accepts] characterises acceptance without the
    reports, for proofs that a plan generator's output is accepted. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Radix Semanticsproof.

(** ** Boolean equality of types *)

Lemma dimty_eqb_eq : forall d e, dimty_eqb d e = true <-> d = e.
Proof.
  intros [xs n] [ys k]. unfold dimty_eqb. simpl.
  rewrite andb_true_iff, list_eqb_eq, Nat.eqb_eq. split.
  - intros [-> ->]. reflexivity.
  - intros H. inversion H. split; reflexivity.
Qed.

Lemma ty_eqb_eq : forall t u, ty_eqb t u = true <-> t = u.
Proof.
  induction t as [|d t IH]; intros [|e u]; simpl; try (split; congruence).
  rewrite andb_true_iff, dimty_eqb_eq, IH. split.
  - intros [-> ->]. reflexivity.
  - intros H. inversion H. split; reflexivity.
Qed.

(** ** Plans that type-check *)

(** [plan_typed m t p t']: every step of [p] applies, and [p] takes [t] to [t']. *)
Inductive plan_typed (m : mesh) : ty -> plan -> ty -> Prop :=
| typed_nil : forall t, plan_typed m t [] t
| typed_cons : forall t k t' p t'', step_type m t k = OK t' ->
    plan_typed m t' p t'' -> plan_typed m t (k :: p) t''.

(** The step reports of a plan that type-checks: the collective, the type
    after it, its local size and the closed-form traffic, step by step. *)
Fixpoint step_reports (m : mesh) (t : ty) (p : plan) : list step_report :=
  match p with
  | [] => []
  | k :: p' =>
      match step_type m t k with
      | OK t' => {| sr_collective := k; sr_type := t'; sr_local_size := local_size m t';
                    sr_recv := step_recv m t k |} :: step_reports m t' p'
      | Error _ => []
      end
  end.

Lemma check_steps_typed : forall m p t i reps final,
  check_steps m t p i = OK (reps, final) -> plan_typed m t p final /\ reps = step_reports m t p.
Proof.
  intros m p. induction p as [|k p IH]; intros t i reps final H; simpl in H.
  - inversion H. split; [constructor | reflexivity].
  - destruct (step_type m t k) as [t'|e] eqn:Hk; [| discriminate].
    destruct (check_steps m t' p (S i)) as [[reps' final']|e] eqn:Hc; [| discriminate].
    inversion H. subst. destruct (IH t' (S i) reps' final Hc) as [Ht Hr].
    split; [econstructor; eassumption |]. simpl. rewrite Hk, Hr. reflexivity.
Qed.

Lemma typed_check_steps : forall m p t i final, plan_typed m t p final ->
  check_steps m t p i = OK (step_reports m t p, final).
Proof.
  intros m p t i final H. revert i.
  induction H as [t | t k t' p t'' Hk Hp IH]; intros i; simpl; [reflexivity |].
  rewrite Hk, IH. reflexivity.
Qed.

(** [check_steps] accepts exactly the plans that type-check, with [step_reports]. *)
Theorem check_steps_ok : forall m t p i reps final,
  check_steps m t p i = OK (reps, final) <->
  plan_typed m t p final /\ reps = step_reports m t p.
Proof.
  intros m t p i reps final. split.
  - apply check_steps_typed.
  - intros [H ->]. apply typed_check_steps. exact H.
Qed.

(** ** What acceptance says *)

Theorem check_wf : forall m src tgt p rep, check m src tgt p = OK rep ->
  mesh_wf m = true /\ ty_wf m src = true /\ ty_wf m tgt = true
  /\ global_shape src = global_shape tgt
  /\ check_steps m src p 0 = OK (rp_steps rep, tgt).
Proof.
  intros m src tgt p rep H. unfold check in H.
  destruct (mesh_wf m) eqn:Hm; simpl in H; [| discriminate].
  destruct (ty_wf m src) eqn:Hs; simpl in H; [| discriminate].
  destruct (ty_wf m tgt) eqn:Ht; simpl in H; [| discriminate].
  destruct (list_eqb (global_shape src) (global_shape tgt)) eqn:Hg; simpl in H; [| discriminate].
  destruct (check_steps m src p 0) as [[reps final]|e] eqn:Hc; [| discriminate].
  destruct (ty_eqb final tgt) eqn:Hf; [| discriminate].
  apply ty_eqb_eq in Hf. apply list_eqb_eq in Hg. subst final.
  inversion H. subst rep. simpl. auto.
Qed.

Theorem check_accepts : forall m src tgt p,
  (exists rep, check m src tgt p = OK rep) <->
  mesh_wf m = true /\ ty_wf m src = true /\ ty_wf m tgt = true
  /\ global_shape src = global_shape tgt /\ plan_typed m src p tgt.
Proof.
  intros m src tgt p. split.
  - intros [rep H]. destruct (check_wf m src tgt p rep H) as [Hm [Hs [Ht [Hg Hc]]]].
    repeat split; auto. apply check_steps_ok in Hc. apply Hc.
  - intros [Hm [Hs [Ht [Hg Hp]]]]. unfold check.
    rewrite Hm, Hs, Ht, Hg. simpl.
    assert (Hgg : list_eqb (global_shape tgt) (global_shape tgt) = true)
      by (apply list_eqb_eq; reflexivity).
    rewrite Hgg, (typed_check_steps m p src 0 tgt Hp).
    assert (Htt : ty_eqb tgt tgt = true) by (apply ty_eqb_eq; reflexivity).
    rewrite Htt. eexists. reflexivity.
Qed.

(** ** Execution of a plan that type-checks *)

Lemma exec_typed_sound : forall m t p t' A (g : list nat -> A) (st : state A),
  mesh_wf m = true -> ty_wf m t = true -> plan_typed m t p t' ->
  holds m t g st -> holds m t' g (exec m t p st).
Proof.
  intros m t p t' A g st Hm Ht H. revert st Ht.
  induction H as [t | t k t' p t'' Hk Hp IH]; intros st Ht Hst; simpl; [exact Hst |].
  rewrite Hk. apply IH.
  - apply (step_type_wf m t k t' Hm Ht Hk).
  - apply (step_sound m t k t'); assumption.
Qed.

Lemma trace_head : forall m t p, trace m t p = t :: tl (trace m t p).
Proof. intros m t [|k p]; reflexivity. Qed.

(** The last element of a non-empty list does not depend on the default. *)
Lemma last_cons_default : forall A (x : A) l d d', last (x :: l) d = last (x :: l) d'.
Proof.
  intros A x l. revert x. induction l as [|y l IH]; intros x d d'; [reflexivity |].
  change (last (y :: l) d = last (y :: l) d'). apply IH.
Qed.

Lemma trace_typed : forall m t p t', plan_typed m t p t' ->
  map sr_type (step_reports m t p) = tl (trace m t p) /\ last (trace m t p) t = t'.
Proof.
  intros m t p t' H.
  induction H as [t | t k t' p t'' Hk Hp [IH1 IH2]]; simpl; [split; reflexivity |].
  rewrite Hk. simpl. rewrite IH1. split; [symmetry; apply trace_head |].
  rewrite <- IH2, (trace_head m t' p).
  transitivity (last (t' :: tl (trace m t' p)) t); [reflexivity | apply last_cons_default].
Qed.

Lemma step_reports_local_size : forall m t p,
  map sr_local_size (step_reports m t p) = map (local_size m) (map sr_type (step_reports m t p)).
Proof.
  intros m t p. revert t. induction p as [|k p IH]; intros t; simpl; [reflexivity |].
  destruct (step_type m t k); simpl; [rewrite IH |]; reflexivity.
Qed.

Lemma fold_left_max : forall xs a, fold_left Nat.max xs a = Nat.max a (list_max xs).
Proof.
  induction xs as [|x xs IH]; intros a; simpl; [lia |]. rewrite IH. lia.
Qed.

(** ** The checker's claims *)

Theorem check_correct : forall m src tgt p rep, check m src tgt p = OK rep ->
  forall A (g : list nat -> A) (st : state A),
  holds m src g st -> holds m tgt g (exec m src p st).
Proof.
  intros m src tgt p rep H A g st Hst.
  destruct (check_wf m src tgt p rep H) as [Hm [Hs [_ [_ Hc]]]].
  apply check_steps_ok in Hc. destruct Hc as [Hp _].
  eapply exec_typed_sound; eassumption.
Qed.

Theorem check_types : forall m src tgt p rep, check m src tgt p = OK rep ->
  map sr_type (rp_steps rep) = tl (trace m src p) /\ last (trace m src p) src = tgt.
Proof.
  intros m src tgt p rep H.
  destruct (check_wf m src tgt p rep H) as [_ [_ [_ [_ Hc]]]].
  apply check_steps_ok in Hc. destruct Hc as [Hp ->]. apply trace_typed. exact Hp.
Qed.

Theorem check_peak : forall m src tgt p rep, check m src tgt p = OK rep ->
  rp_peak rep = list_max (map (local_size m) (trace m src p)).
Proof.
  intros m src tgt p rep H. pose proof H as H'.
  unfold check in H.
  destruct (mesh_wf m); simpl in H; [| discriminate].
  destruct (ty_wf m src); simpl in H; [| discriminate].
  destruct (ty_wf m tgt); simpl in H; [| discriminate].
  destruct (list_eqb (global_shape src) (global_shape tgt)); simpl in H; [| discriminate].
  destruct (check_steps m src p 0) as [[reps final]|e] eqn:Hc; [| discriminate].
  destruct (ty_eqb final tgt); [| discriminate].
  inversion H. subst rep. simpl. clear H.
  apply check_steps_ok in Hc. destruct Hc as [Hp ->].
  destruct (trace_typed m src p final Hp) as [Htr _].
  rewrite fold_left_max, step_reports_local_size, Htr, (trace_head m src p). reflexivity.
Qed.
