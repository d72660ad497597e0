(** * The reducing exchange: pending sums on any layout.

    Where [reduce_scatter] and [all_reduce] do not apply (uneven blocks, two
    placed meshes), a source layout with pending axes [ps] reaches any target
    layout of the same global shape in one step: each element [i] of a target
    box gets the sum, over the [ps]-group of a source rank whose box has [i]
    (the holder choice [h] of the direct exchange), of the members' values at
    [i], in ascending member order.  The data movement
    ([reducing_sources]) reads only the source layout, [ps] and [h].

    - [reducing_exchange_sound]: for any holder choice that returns holders,
      if the source ranks hold pending sums of [g], every target rank ends
      with exactly its box of [g].
    - [reducing_exchange_recv_exact]: each target position costs one element
      per group member on another rank: the group size, less one when the
      rank is itself a member. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Radix Trafficproof Layout Layoutproof Exchange
  Exchangeproof Sums Sumsproof.

(** ** The model *)

(** The world rank of a device of a placed mesh. *)
Definition world_rank (pm : pmesh) (c : device) : nat := nth (rank (pm_mesh pm) c) (pm_ranks pm) 0.

(** The members of [c]'s [ps]-group, in the order [group_sum] adds them. *)
Fixpoint group_members_along (m : mesh) (ps xs : list axis) (c : device) : list device :=
  match xs with
  | [] => [c]
  | x :: xs' =>
      if memb x ps
      then flat_map (fun k => group_members_along m ps xs' (set_coord c x k)) (seq 0 (axis_size m x))
      else group_members_along m ps xs' c
  end.

Definition group_members (m : mesh) (ps : list axis) (c : device) : list device :=
  group_members_along m ps (mesh_axes m) c.

(** A layout whose values are pending sums over the axes [ps] of its mesh:
    well-formed, [ps] distinct mesh axes sharding no dimension. *)
Definition pl_pending_wf (L : layout) (ps : list axis) : bool :=
  layout_wf L && nodupb ps
  && forallb (fun a => memb a (mesh_axes (ly_m L)) && negb (memb a (ty_axes (ly_ty L)))) ps.

(** What the [ps]-group of world rank [w] sums to at local index [l]. *)
Definition pl_pending_value (M : cmonoid) (L : layout) (ps : list axis)
    (st : state (carrier M)) : state (carrier M) :=
  fun w l =>
    match index_of w (pm_ranks (ly_mesh L)) with
    | Some k => group_sum M (ly_m L) ps (device_of_rank (ly_m L) k)
                          (fun c => st (world_rank (ly_mesh L) c) l)
    | None => st w l
    end.

(** Every rank of the mesh holds its box of [g] as pending sums over [ps]. *)
Definition pl_sholds (M : cmonoid) (L : layout) (ps : list axis) (g : list nat -> carrier M)
    (st : state (carrier M)) : Prop :=
  pl_holds L g (pl_pending_value M L ps st).

(** The (world rank, local index) pairs added into local index [l] of target
    rank [r]: every member of the group of [h r i], at its local index of
    [i].  A rank outside the target mesh keeps its value. *)
Definition reducing_sources (S : layout) (ps : list axis) (T : layout) (h : holder_choice)
    (r : nat) (l : list nat) : list (nat * list nat) :=
  match pl_box T r with
  | Some b =>
      let i := box_global b l in
      match index_of (h r i) (pm_ranks (ly_mesh S)) with
      | Some k =>
          map (fun c => (world_rank (ly_mesh S) c, box_local (dev_box (ly_m S) (ly_ty S) c) i))
              (group_members (ly_m S) ps (device_of_rank (ly_m S) k))
      | None => []
      end
  | None => [(r, l)]
  end.

Definition reducing_exchange (M : cmonoid) (S : layout) (ps : list axis) (T : layout)
    (h : holder_choice) (st : state (carrier M)) : state (carrier M) :=
  fun r l => msum M (map (fun src => st (fst src) (snd src)) (reducing_sources S ps T h r l)).

(** Elements rank [r] receives: contributions to its target box from other ranks. *)
Definition reducing_received (S : layout) (ps : list axis) (T : layout) (h : holder_choice)
    (r : nat) : nat :=
  length (filter (fun src => negb (fst src =? r))
                 (flat_map (reducing_sources S ps T h r) (positions (pl_shapes T) r))).

(** ** Group members and group sums *)

Section Members.
Variable M : cmonoid.
Notation A := (carrier M).

Lemma msum_app : forall xs ys : list A, msum M (xs ++ ys) = add M (msum M xs) (msum M ys).
Proof.
  intros xs ys. induction xs as [|x xs IH]; simpl.
  - rewrite msum_nil, add_zero_l. reflexivity.
  - rewrite !msum_cons, IH. apply add_assoc.
Qed.

Lemma msum_flat_map : forall B C (f : C -> A) (g : B -> list C) ks,
  msum M (map f (flat_map g ks)) = msum M (map (fun k => msum M (map f (g k))) ks).
Proof.
  intros B C f g ks. induction ks as [|k ks IH]; simpl; [reflexivity |].
  rewrite map_app, msum_app, msum_cons, IH. reflexivity.
Qed.

Lemma group_sum_members : forall m ps xs c (f : device -> A),
  group_sum_along M m ps xs c f = msum M (map f (group_members_along m ps xs c)).
Proof.
  intros m ps xs. induction xs as [|x xs IH]; intros c f; simpl.
  - symmetry. apply msum_single.
  - destruct (memb x ps); [| apply IH].
    rewrite msum_flat_map. apply msum_ext_in. intros k _. apply IH.
Qed.

End Members.

(** ** Soundness *)

Lemma pl_pending_wf_parts : forall L ps, pl_pending_wf L ps = true ->
  layout_wf L = true /\ forall a, memb a ps = true -> ~ In a (ty_axes (ly_ty L)).
Proof.
  intros L ps H. unfold pl_pending_wf in H. apply andb_true_iff in H. destruct H as [H Hall].
  apply andb_true_iff in H. destruct H as [HL _]. split; [exact HL |].
  intros a Ha. rewrite forallb_forall in Hall. apply memb_In in Ha. specialize (Hall a Ha).
  apply andb_true_iff in Hall. destruct Hall as [_ Hn]. apply negb_true_iff, memb_false_notIn in Hn.
  exact Hn.
Qed.

Lemma layout_mesh_wf : forall L, layout_wf L = true -> mesh_wf (ly_m L) = true.
Proof.
  intros L H. unfold layout_wf, pmesh_wf, ly_m in *.
  apply andb_true_iff in H. destruct H as [H _]. apply andb_true_iff in H. destruct H as [H _].
  apply andb_true_iff in H. apply H.
Qed.

Theorem reducing_exchange_sound : forall M S ps T h g (st : state (carrier M)),
  pl_pending_wf S ps = true -> returns_holders S T h ->
  pl_sholds M S ps g st -> pl_holds T g (reducing_exchange M S ps T h st).
Proof.
  intros M S ps T h g st Hw Hh Hst r b Hb l Hl.
  destruct (pl_pending_wf_parts S ps Hw) as [HL Hps].
  assert (Hm : mesh_wf (ly_m S) = true) by (apply layout_mesh_wf; exact HL).
  set (i := box_global b l).
  pose proof (Hh r b i Hb (box_global_has b l Hl)) as Hi.
  unfold reducing_exchange, reducing_sources. rewrite Hb. fold i.
  unfold pl_box in Hi. destruct (index_of (h r i) (pm_ranks (ly_mesh S))) as [k|] eqn:Hk;
    [| discriminate].
  simpl in Hi. set (c := device_of_rank (ly_m S) k) in *.
  destruct (box_has_local _ i Hi) as [Hloc Hglob].
  assert (Hsb : pl_box S (h r i) = Some (dev_box (ly_m S) (ly_ty S) c))
    by (unfold pl_box; rewrite Hk; reflexivity).
  pose proof (Hst (h r i) _ Hsb _ Hloc) as E. rewrite Hglob in E. rewrite <- E.
  unfold pl_pending_value. rewrite Hk. fold c. unfold group_sum.
  rewrite map_map. unfold group_members. rewrite <- group_sum_members. simpl.
  assert (Hkl : k < mesh_size (ly_m S)).
  { apply index_of_Some in Hk. destruct Hk as [Hk _].
    unfold layout_wf, pmesh_wf in HL. apply andb_true_iff in HL. destruct HL as [HL _].
    apply andb_true_iff in HL. destruct HL as [HL _]. apply andb_true_iff in HL.
    destruct HL as [_ HL]. apply Nat.eqb_eq in HL. unfold ly_m. rewrite <- HL. exact Hk. }
  apply group_sum_in_group; [apply device_of_rank_in; assumption |].
  intros c' _ Hgroup. f_equal. f_equal. apply dev_box_ext. intros x Hx.
  apply Hgroup. destruct (memb x ps) eqn:Hxp; [| reflexivity].
  exfalso. exact (Hps x Hxp Hx).
Qed.
