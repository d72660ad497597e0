(** * The NCCL exchange's staging workspace.

    Over NCCL the direct exchange ([Exchange.recv_messages]) packs every
    message it sends into a staging workspace and receives every message
    from another rank into it, then unpacks; a message from the rank itself
    is a local copy and is not staged.  So rank [w] stages the cells it
    receives from other ranks and the cells it sends to other ranks, each
    once, back to back ([nccl_staging]); one header serves every rank, so
    its workspace is the largest over the ranks of both meshes, times the
    element size ([nccl_workspace_bytes]).

    The figure is computed with each mesh's boxes found once and the
    per-rank sums accumulated in one pass over the messages into a map
    keyed by rank ([rank_counts]), so a 4,096-device problem does not walk every pair of
    ranks' boxes once per rank.  [Lowerncclproof.nccl_workspace_bytes_exact]
    proves it equal to the largest [nccl_staging] times the element size.

    The reducing exchange over NCCL ([redist::nccl::ReducingExchange]) is
    the lowering of [Lowersumx.v] with the same staging discipline: a
    designated rank keeps its [|G|] member arrays ([sumx_staging_bytes]),
    and every message of a piece ([sumx_pieces]) from a sender to another
    rank is staged contiguously at both ends, back to back after them
    ([nccl_sumx_staging_bytes]).  [nccl_sumx_workspace_bytes] is the header's
    figure, computed in one pass as above;
    [Lowerncclproof.nccl_sumx_workspace_bytes_exact] proves it the largest
    rank's need. *)

From Coq Require Import List Arith Lia Bool PArith.
Import ListNotations.
From Redist Require Import Model Layout Exchange Sumexchange Sumstrategy Lowersumx.

(** Elements a message from [s] to [r] of [n] elements puts in rank [w]'s
    staging workspace: all of them when [w] is one end and the other end is
    another rank, none for a local copy. *)
Definition staged_share (w s r n : nat) : nat :=
  if s =? r then 0 else (if r =? w then n else 0) + (if s =? w then n else 0).

(** The ranks that receive: the target mesh's. *)
Definition receivers (T : layout) : list nat := pm_ranks (ly_mesh T).

(** Elements rank [w] stages: over every receiving rank's messages, those
    that [w] receives from another rank or sends to another rank. *)
Definition nccl_staging (S T : layout) (w : nat) : nat :=
  list_sum (map (fun r => list_sum (map (fun '(s, c) => staged_share w s r (box_size c))
                                        (recv_messages S T r)))
                (receivers T)).

(** ** The figure, computed in one pass *)

(** Per-rank counts in a binary trie keyed by [Pos.of_succ_nat] of the rank:
    a lookup or an addition costs the key's bits. *)
Inductive rank_counts : Type :=
| NoCounts
| Counts (here : nat) (evens odds : rank_counts).

Fixpoint count_at (k : positive) (t : rank_counts) : nat :=
  match t, k with
  | NoCounts, _ => 0
  | Counts h _ _, xH => h
  | Counts _ e _, xO k' => count_at k' e
  | Counts _ _ o, xI k' => count_at k' o
  end.

Fixpoint add_count (k : positive) (n : nat) (t : rank_counts) : rank_counts :=
  match t, k with
  | NoCounts, xH => Counts n NoCounts NoCounts
  | NoCounts, xO k' => Counts 0 (add_count k' n NoCounts) NoCounts
  | NoCounts, xI k' => Counts 0 NoCounts (add_count k' n NoCounts)
  | Counts h e o, xH => Counts (n + h) e o
  | Counts h e o, xO k' => Counts h (add_count k' n e) o
  | Counts h e o, xI k' => Counts h e (add_count k' n o)
  end.

Definition staged_at (w : nat) (acc : rank_counts) : nat := count_at (Pos.of_succ_nat w) acc.

Definition add_at (w n : nat) (acc : rank_counts) : rank_counts := add_count (Pos.of_succ_nat w) n acc.

(** Every message as (sender, receiver, elements), each mesh's boxes found once. *)
Definition staged_messages (S T : layout) : list (nat * nat * nat) :=
  let h := spread_in (mesh_boxes S) (mesh_boxes T) S in
  flat_map (fun r => map (fun c => (h r (map fst c), r, box_size c)) (recv_cells S T r)) (receivers T).

Definition accumulate_staging (msgs : list (nat * nat * nat)) (acc : rank_counts) : rank_counts :=
  fold_left (fun acc '(s, r, n) => if s =? r then acc else add_at s n (add_at r n acc)) msgs acc.

(** The ranks of both meshes: every rank that sends or receives. *)
Definition exchange_ranks (S T : layout) : list nat := pm_ranks (ly_mesh S) ++ pm_ranks (ly_mesh T).

(** The staging workspace, in bytes, that the NCCL exchange needs on any rank. *)
Definition nccl_workspace_bytes (elem : nat) (S T : layout) : nat :=
  let staged := accumulate_staging (staged_messages S T) NoCounts in
  list_max (map (fun w => staged_at w staged) (exchange_ranks S T)) * elem.

(** ** The reducing exchange's staging *)

(** Bytes rank [w] stages in the reducing exchange: its member arrays, then,
    for every piece of every receiving rank [r], each sender's message when
    [w] is one end of it and the other end is another rank. *)
Definition nccl_sumx_staging_bytes (elem : nat) (S : layout) (ps : list axis) (T : layout) (pt : list axis)
    (w : nat) : nat :=
  sumx_staging_bytes elem S ps T pt w
  + list_sum (map (fun r => list_sum (map (fun p => list_sum (map (fun s => staged_share w s r (box_size (xp_cell p)))
                                                                  (xp_senders p)))
                                          (sumx_pieces S ps T pt r)))
                  (receivers T)) * elem.

(** Every message of the reducing exchange as (sender, receiver, elements),
    the holder choice, each mesh's boxes and the source groups found once. *)
Definition sumx_messages (S : layout) (ps : list axis) (T : layout) (pt : list axis) : list (nat * nat * nat) :=
  let h := spread_in (mesh_boxes S) (mesh_boxes T) S in
  let senders := group_ranks S ps in
  flat_map (fun r => if designated T pt r
                     then flat_map (fun c => map (fun s => (s, r, box_size c)) (senders (h r (map fst c))))
                                   (recv_cells S T r)
                     else [])
           (receivers T).

(** The workspace, in bytes, that the NCCL reducing exchange needs on any rank. *)
Definition nccl_sumx_workspace_bytes (elem : nat) (S : layout) (ps : list axis) (T : layout) (pt : list axis)
  : nat :=
  let staged := accumulate_staging (sumx_messages S ps T pt) NoCounts in
  let g := group_size (ly_m S) ps in
  let size := target_box_size S T in
  let receives := receives_sum S T pt in
  list_max (map (fun w => ((if receives w then g * size w else 0) + staged_at w staged) * elem)
                (exchange_ranks S T)).
