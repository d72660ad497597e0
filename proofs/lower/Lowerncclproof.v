(** * The NCCL exchange's staging figure is each rank's largest need.

    [nccl_workspace_bytes_exact]: the header's [kWorkspaceBytes] is the
    largest, over the ranks of both meshes, of what a rank stages
    ([nccl_staging]: the cells it receives from other ranks and sends to
    other ranks, from [recv_messages]), times the element size; so every
    such rank's staging fits in it, and one rank's fills it.
    [nccl_staging_outside]: a rank in neither mesh stages nothing, so it is
    the largest over every world rank.
    [nccl_sumx_workspace_bytes_exact]: the same for the reducing exchange:
    the header's figure is the largest [nccl_sumx_staging_bytes] over the
    ranks of both meshes (member arrays, then every message from or to
    another rank of the pieces of [Lowersumx.sumx_pieces]). *)

From Coq Require Import List Arith Lia Bool PArith.
Import ListNotations.
From Redist Require Import Model Layout Exchange Exchangeproof Sumexchange Sumstrategy Sumstrategyproof Lowersumx
  Lowernccl.

Lemma count_at_none : forall q, count_at q NoCounts = 0.
Proof. intros [q|q|]; reflexivity. Qed.

Lemma count_at_add_count : forall k q n t,
  count_at q (add_count k n t) = (if Pos.eqb k q then n else 0) + count_at q t.
Proof.
  induction k as [k IH|k IH|]; intros q n t; destruct t as [|h e o], q as [q|q|]; simpl;
    rewrite ?IH, ?count_at_none; lia.
Qed.

Lemma staged_at_add_at : forall w k n acc,
  staged_at w (add_at k n acc) = (if k =? w then n else 0) + staged_at w acc.
Proof.
  intros w k n acc. unfold staged_at, add_at. rewrite count_at_add_count.
  destruct (Pos.eqb_spec (Pos.of_succ_nat k) (Pos.of_succ_nat w)) as [E|E]; destruct (Nat.eqb_spec k w) as [<-|Ne];
    try reflexivity; [apply SuccNat2Pos.inj in E; contradiction | congruence].
Qed.

Lemma staged_at_accumulate : forall w msgs acc,
  staged_at w (accumulate_staging msgs acc)
  = list_sum (map (fun '(s, r, n) => staged_share w s r n) msgs) + staged_at w acc.
Proof.
  intros w msgs. induction msgs as [|[[s r] n] msgs IH]; intros acc; simpl; [reflexivity |].
  rewrite IH. unfold staged_share. destruct (s =? r); [lia |].
  rewrite !staged_at_add_at. lia.
Qed.

Lemma list_sum_map_flat_map : forall {A B} (f : B -> nat) (g : A -> list B) l,
  list_sum (map f (flat_map g l)) = list_sum (map (fun x => list_sum (map f (g x))) l).
Proof.
  intros A B f g l. induction l as [|x l IH]; simpl; [reflexivity |].
  rewrite map_app, list_sum_app, IH. reflexivity.
Qed.

Lemma staged_messages_staging : forall S T w,
  list_sum (map (fun '(s, r, n) => staged_share w s r n) (staged_messages S T)) = nccl_staging S T w.
Proof.
  intros S T w. unfold staged_messages, nccl_staging, recv_messages.
  rewrite list_sum_map_flat_map. f_equal. apply map_ext. intros r.
  rewrite !map_map. reflexivity.
Qed.

Lemma staged_at_empty : forall w, staged_at w NoCounts = 0.
Proof. intros w. apply count_at_none. Qed.

Lemma list_max_ge : forall x l, In x l -> x <= list_max l.
Proof.
  intros x l Hx. assert (H : list_max l <= list_max l) by lia.
  apply list_max_le, Forall_forall with (x := x) in H; assumption.
Qed.

Theorem nccl_workspace_bytes_exact : forall elem S T,
  nccl_workspace_bytes elem S T = list_max (map (nccl_staging S T) (exchange_ranks S T)) * elem
  /\ forall w, In w (exchange_ranks S T) -> nccl_staging S T w * elem <= nccl_workspace_bytes elem S T.
Proof.
  intros elem S T.
  assert (E : nccl_workspace_bytes elem S T = list_max (map (nccl_staging S T) (exchange_ranks S T)) * elem).
  { unfold nccl_workspace_bytes. f_equal. f_equal. apply map_ext. intros w.
    rewrite staged_at_accumulate, staged_at_empty, staged_messages_staging. lia. }
  split; [exact E |]. intros w Hw. rewrite E. apply Nat.mul_le_mono_r, list_max_ge, in_map, Hw.
Qed.

Lemma list_sum_map_zero : forall {A} (f : A -> nat) l, (forall x, In x l -> f x = 0) -> list_sum (map f l) = 0.
Proof.
  intros A f l H. induction l as [|x l IH]; simpl; [reflexivity |].
  rewrite H, IH; [reflexivity | intros y Hy; apply H; right; exact Hy | left; reflexivity].
Qed.

(** A message to [r] comes from [r] itself or from a rank of the source mesh. *)
Lemma recv_messages_sender : forall S T r s c, In (s, c) (recv_messages S T r) ->
  s = r \/ In s (pm_ranks (ly_mesh S)).
Proof.
  intros S T r s c Hin. unfold recv_messages in Hin. apply in_map_iff in Hin.
  destruct Hin as [c' [E _]]. injection E as <- _. unfold spread_in.
  destruct (has_opt (pl_box S r) (map fst c')); [left; reflexivity |].
  cbv zeta.
  set (hs := holders_in (mesh_boxes S) (map fst c')). set (k := _ mod length hs).
  destruct (Nat.lt_ge_cases k (length hs)) as [Hk | Hk]; [| left; apply nth_overflow, Hk].
  right. assert (Hhs : forall x, In x hs -> In x (pm_ranks (ly_mesh S))).
  { intros x Hx. unfold hs, holders_in in Hx. apply in_map_iff in Hx.
    destruct Hx as [[y b] [Ey Hy]]. simpl in Ey. subst y.
    apply filter_In in Hy. destruct Hy as [Hy _]. rewrite mesh_boxes_by_position in Hy.
    apply in_map_iff in Hy. destruct Hy as [j [Ej Hj]]. injection Ej as Ej _. subst x.
    apply in_seq in Hj. apply nth_In. lia. }
  apply Hhs, nth_In, Hk.
Qed.

(** A rank in neither mesh stages nothing: the largest over both meshes'
    ranks is the largest over every world rank. *)
Theorem nccl_staging_outside : forall S T w, ~ In w (exchange_ranks S T) -> nccl_staging S T w = 0.
Proof.
  intros S T w Hw. unfold nccl_staging. apply list_sum_map_zero. intros r Hr.
  apply list_sum_map_zero. intros [s c] Hsc. unfold staged_share.
  assert (Hrw : r <> w) by (intros ->; apply Hw, in_or_app; right; exact Hr).
  destruct (Nat.eqb_spec s r) as [| Hsr]; [reflexivity |].
  destruct (recv_messages_sender S T r s c Hsc) as [| Hs]; [contradiction |].
  assert (Hsw : s <> w) by (intros ->; apply Hw, in_or_app; left; exact Hs).
  apply Nat.eqb_neq in Hrw. apply Nat.eqb_neq in Hsw. rewrite Hrw, Hsw. reflexivity.
Qed.

(** ** The reducing exchange *)

Lemma sumx_messages_staging : forall S ps T pt w,
  list_sum (map (fun '(s, r, n) => staged_share w s r n) (sumx_messages S ps T pt))
  = list_sum (map (fun r => list_sum (map (fun p => list_sum (map (fun s => staged_share w s r (box_size (xp_cell p)))
                                                                  (xp_senders p)))
                                          (sumx_pieces S ps T pt r)))
                  (receivers T)).
Proof.
  intros S ps T pt w. unfold sumx_messages, sumx_pieces, recv_messages.
  rewrite list_sum_map_flat_map. f_equal. apply map_ext. intros r.
  destruct (designated T pt r); [| reflexivity].
  rewrite list_sum_map_flat_map, !map_map. f_equal. apply map_ext. intros c.
  rewrite map_map. reflexivity.
Qed.

Theorem nccl_sumx_workspace_bytes_exact : forall elem S ps T pt,
  nccl_sumx_workspace_bytes elem S ps T pt
  = list_max (map (nccl_sumx_staging_bytes elem S ps T pt) (exchange_ranks S T))
  /\ forall w, In w (exchange_ranks S T) ->
     nccl_sumx_staging_bytes elem S ps T pt w <= nccl_sumx_workspace_bytes elem S ps T pt.
Proof.
  intros elem S ps T pt.
  assert (E : nccl_sumx_workspace_bytes elem S ps T pt
              = list_max (map (nccl_sumx_staging_bytes elem S ps T pt) (exchange_ranks S T))).
  { unfold nccl_sumx_workspace_bytes. f_equal. apply map_ext. intros w.
    rewrite staged_at_accumulate, staged_at_empty, sumx_messages_staging, receives_sum_spec,
      target_box_size_spec.
    unfold nccl_sumx_staging_bytes, sumx_staging_bytes. destruct (designated T pt w); lia. }
  split; [exact E |]. intros w Hw. rewrite E. apply list_max_ge, in_map, Hw.
Qed.
