(** * The direct exchange moves the right data and receives exactly what is missing.

    - [exchange_sound]: for any holder choice that returns holders, after the
      exchange every rank of the target mesh holds exactly its target box
      (ranks outside it hold nothing: they have no box).
    - [exchange_recv_exact]: when the choice also keeps what a rank holds,
      each rank receives exactly the elements of its target box that are not
      in its source box.
    - [spread_holder_ok]: the command's choice does both, on every pair of
      well-formed layouts of one global shape. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Trafficproof Layout Layoutproof Exchange.

(** [h] names, for every index of a target box, a source rank whose box has it. *)
Definition returns_holders (S T : layout) (h : holder_choice) : Prop :=
  forall r b i, pl_box T r = Some b -> box_has b i = true -> has_opt (pl_box S (h r i)) i = true.

(** [h] keeps, on every rank, the elements its source box has. *)
Definition picks_self (S : layout) (h : holder_choice) : Prop :=
  forall r i, has_opt (pl_box S r) i = true -> h r i = r.

Theorem exchange_sound : forall S T h A (g : list nat -> A) (st : state A),
  returns_holders S T h -> pl_holds S g st -> pl_holds T g (exchange S T h st).
Proof.
  intros S T h A g st Hh Hst r b Hb l Hl.
  unfold exchange, run_wire, exchange_wire. rewrite Hb. cbn [fst snd].
  pose proof (Hh r b (box_global b l) Hb (box_global_has b l Hl)) as Hi.
  destruct (pl_box S (h r (box_global b l))) as [sb|] eqn:Hsb; [| discriminate].
  simpl in Hi. destruct (box_has_local sb _ Hi) as [H1 H2].
  rewrite (Hst _ sb Hsb _ H1), H2. reflexivity.
Qed.

Theorem exchange_recv_exact : forall S T h r,
  returns_holders S T h -> picks_self S h ->
  exchange_received S T h r = length (missing S T r).
Proof.
  intros S T h r Hh Hself.
  unfold exchange_received, wire_received, positions, pl_shapes, missing.
  destruct (pl_box T r) as [b|] eqn:Hb; [| reflexivity]. simpl.
  rewrite length_filter_map. f_equal. apply filter_ext_in. intros l Hl.
  apply in_box_indices in Hl. unfold exchange_wire. rewrite Hb. cbn [fst]. f_equal.
  destruct (has_opt (pl_box S r) (box_global b l)) eqn:E.
  - rewrite (Hself r _ E). apply Nat.eqb_refl.
  - apply Nat.eqb_neq. intros E'.
    pose proof (Hh r b (box_global b l) Hb (box_global_has b l Hl)) as Hi.
    rewrite E' in Hi. congruence.
Qed.

Theorem spread_holder_ok : forall S T, layouts_wf S T = true ->
  returns_holders S T (spread_holder S T) /\ picks_self S (spread_holder S T).
Proof.
  intros S T Hwf. split.
  - intros r b i Hb Hi. unfold spread_holder.
    destruct (has_opt (pl_box S r) i) eqn:E; [exact E |].
    destruct (covered S T r b i Hwf Hb Hi) as [s [Hs Hsi]].
    assert (Hin : In s (holders_of S i)) by (apply filter_In; auto).
    set (hs := holders_of S i) in *. set (k := match index_of r (needers_of S T i) with
                                               | Some k => k | None => 0 end).
    assert (Hlen : length hs <> 0) by (destruct hs; simpl in *; [contradiction | lia]).
    assert (Hn : In (nth (k mod length hs) hs r) hs)
      by (apply nth_In; apply Nat.mod_upper_bound; exact Hlen).
    apply filter_In in Hn. apply Hn.
  - intros r i H. unfold spread_holder. rewrite H. reflexivity.
Qed.
