(** * Calls that read and write named buffers, whatever the names and the calls.

    The plain lowering ([Lower]) and the pending-sum one ([Lowersums]) name
    their buffers with their own types and their calls with their own
    records; what their workspace proofs need of them is stated here once:
    equality of names decided by [Scheme Equality]'s boolean test, a list of
    calls in which each reads what the one before wrote, and the largest
    size at which a buffer is written being some call's. *)

From Coq Require Import List Arith Lia.
Import ListNotations.

Lemma in_list_max : forall x l, In x l -> x <= list_max l.
Proof.
  intros x l H. assert (Hf : Forall (fun k => k <= list_max l) l) by (apply list_max_le; lia).
  rewrite Forall_forall in Hf. apply Hf, H.
Qed.

Lemma list_max_attained : forall l, list_max l = 0 \/ In (list_max l) l.
Proof.
  induction l as [|a l IH]; [left; reflexivity |].
  change (list_max (a :: l)) with (Nat.max a (list_max l)).
  destruct (Nat.max_spec a (list_max l)) as [[_ E] | [_ E]]; rewrite E.
  - destruct IH as [IH | IH]; [left | right; right]; assumption.
  - right. left. reflexivity.
Qed.

(** ** Names: a boolean test that is equality *)

Section Names.
Context {B : Type} (beq : B -> B -> bool).
Hypothesis beq_bl : forall a b, beq a b = true -> a = b.
Hypothesis beq_lb : forall a b, a = b -> beq a b = true.

Lemma beq_refl : forall b, beq b b = true.
Proof. intros b. apply beq_lb. reflexivity. Qed.

Lemma beq_true_iff : forall a b, beq a b = true <-> a = b.
Proof. intros a b. split; [apply beq_bl | apply beq_lb]. Qed.

End Names.

Section Calls.
Context {B C : Type} (beq : B -> B -> bool).
Hypothesis beq_bl : forall a b, beq a b = true -> a = b.
Hypothesis beq_lb : forall a b, a = b -> beq a b = true.
Variables (input output : C -> B) (in_bytes out_bytes : C -> nat).

(** ** Chains: each call reads the first buffer or what a call wrote *)

(** Every call of [cs] reads [first] at [n] bytes, or a buffer some call
    of [cs] writes, at the size it writes it. *)
Definition reads_chained (first : B) (n : nat) (cs : list C) : Prop :=
  forall c, In c cs -> (input c = first /\ in_bytes c = n)
    \/ exists c', In c' cs /\ output c' = input c /\ out_bytes c' = in_bytes c.

Lemma reads_chained_nil : forall first n, reads_chained first n [].
Proof. intros first n c []. Qed.

Lemma reads_chained_cons : forall first n c cs, input c = first -> in_bytes c = n ->
  reads_chained (output c) (out_bytes c) cs -> reads_chained first n (c :: cs).
Proof.
  intros first n c cs E1 E2 Hcs c' [<- | Hin]; [left; split; assumption |].
  right. destruct (Hcs c' Hin) as [[E3 E4] | [c'' [H1 H2]]].
  - exists c. split; [left; reflexivity |]. split; symmetry; assumption.
  - exists c''. split; [right |]; assumption.
Qed.

(** ** The size at which a buffer is written: the largest write *)

Definition written_at (b : B) (c : C) : nat := if beq (output c) b then out_bytes c else 0.

Lemma written_at_le : forall b cs c, In c cs -> output c = b ->
  out_bytes c <= list_max (map (written_at b) cs).
Proof.
  intros b cs c Hin E. replace (out_bytes c) with (written_at b c)
    by (unfold written_at; rewrite (beq_lb _ _ E); reflexivity).
  apply in_list_max, in_map, Hin.
Qed.

(** A buffer written at all is as large as some call's write of it. *)
Lemma written_at_attained : forall b cs, list_max (map (written_at b) cs) = 0
  \/ exists c, In c cs /\ output c = b /\ out_bytes c = list_max (map (written_at b) cs).
Proof.
  intros b cs. destruct (list_max_attained (map (written_at b) cs)) as [E | H]; [left; exact E |].
  destruct (Nat.eq_dec (list_max (map (written_at b) cs)) 0) as [E | Hne]; [left; exact E |].
  right. apply in_map_iff in H. destruct H as [c [E Hc]]. exists c. split; [exact Hc |].
  unfold written_at in E. destruct (beq (output c) b) eqn:Eb.
  - split; [apply beq_bl |]; assumption.
  - exfalso. apply Hne. symmetry. exact E.
Qed.

End Calls.
