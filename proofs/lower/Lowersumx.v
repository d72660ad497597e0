(** * Lowering the reducing exchange to what each rank does.

    A [SumByExchange] plan (pending sums on any layouts, [Sumexchange.v]) is
    one call of the runtime's [redist::ReducingExchange] per rank.  Its
    lowering, per world rank [r], as data:

    - [sumx_pieces r]: when [r] is the designated member of its target
      group ([Sumexchange.designated]), one piece per message of the direct
      exchange ([recv_messages]: the cells of its target box, each with the
      rank the spread rule names); a piece lists the world ranks of that
      rank's source group over the pending axes [ps], in ascending member
      order ([group_members]).  Sender number [k] of a piece sends its cell
      into staging array [k] (a local copy when it is [r]); other ranks
      have no pieces and set their destination to zero.
    - [sumx_sends s]: the (receiver, cell) messages rank [s] sends: one per
      piece of another rank that lists [s].
    - Staging: a designated rank with target box [tb] stages [|G|] arrays
      shaped like [tb], array [k] at byte [k * |tb| * elem] of the
      workspace ([|G|] = [group_size], the members of a source group); it
      adds them into the destination in order [0 .. |G| - 1].  The others
      stage nothing ([sumx_staging_bytes]).
    - The rank reads its source (it sends from it) and writes the
      destination and the workspace.

    [sumx_dst] interprets this over per-rank values of a commutative
    monoid: element [l] of [r]'s destination is the sum, in sender order,
    of what each sender of the piece holding [l]'s global index has there.
    [Lowersumxproof.v] proves it is the model's reducing exchange with the
    command's holder choice, that the staging is exactly what the header
    asks for, and the bytes alive per rank.

    [lower_sumplan] lowers either kind of pending-sum plan, the additions
    of pending axes with the fill of the operation (the reducing exchange
    has none: it leaves the identity on the other members); [run_sumplan],
    [sumplan_live_bytes] and [sumplan_workspace_bytes] are what the command
    runs and states for any plan [plan_sums] returns. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics Checker Layout Exchange Strategy Sums Sumexchange Sumstrategy
  Lower Lowersums.

(** A cell of a designated rank's target box and the ranks whose values are
    added into it, in the order they are added. *)
Record sx_piece : Type := {
  xp_cell : box;
  xp_senders : list nat
}.

(** The world ranks of the source group of world rank [s] over [ps], in
    ascending member order, its mesh's rank table built once. *)
Definition group_ranks (S : layout) (ps : list axis) : nat -> list nat :=
  let table := rank_table_of (pm_ranks (ly_mesh S)) in
  fun s =>
    match table_index table s with
    | Some k => map (world_rank (ly_mesh S)) (group_members (ly_m S) ps (device_of_rank (ly_m S) k))
    | None => []
    end.

Definition sumx_pieces (S : layout) (ps : list axis) (T : layout) (pt : list axis) : nat -> list sx_piece :=
  let senders := group_ranks S ps in
  fun r =>
    if designated T pt r
    then map (fun msg => {| xp_cell := snd msg; xp_senders := senders (fst msg) |}) (recv_messages S T r)
    else [].

(** What world rank [s] sends: (receiver, cell), in the receivers' mesh
    order and each receiver's piece order. *)
Definition sumx_sends (S : layout) (ps : list axis) (T : layout) (pt : list axis) : nat -> list (nat * box) :=
  let pieces := sumx_pieces S ps T pt in
  fun s =>
    flat_map (fun r => if r =? s then []
                       else map (fun p => (r, xp_cell p)) (filter (fun p => memb s (xp_senders p)) (pieces r)))
             (pm_ranks (ly_mesh T)).

(** One staging array of world rank [r], in bytes: its target box. *)
Definition sumx_array_bytes (elem : nat) (T : layout) (r : nat) : nat := box_size_at T r * elem.

(** Staging of world rank [r], in bytes: [|G|] arrays of its target box on
    the designated members (array [k] at [k * sumx_array_bytes]), none
    elsewhere. *)
Definition sumx_staging_bytes (elem : nat) (S : layout) (ps : list axis) (T : layout) (pt : list axis)
    (r : nat) : nat :=
  if designated T pt r then group_size (ly_m S) ps * box_size_at T r * elem else 0.

(** The workspace the header asks for: the largest staging over the target
    mesh, each rank's box size and designation found through the rank
    table once ([Sumstrategy.target_box_size], [receives_sum]). *)
Definition sumx_workspace_bytes (elem : nat) (S : layout) (ps : list axis) (T : layout) (pt : list axis) : nat :=
  let g := group_size (ly_m S) ps in
  let size := target_box_size S T in
  let receives := receives_sum S T pt in
  list_max (map (fun r => if receives r then g * size r * elem else 0) (pm_ranks (ly_mesh T))).

(** Bytes alive on world rank [w] during the call: its source box, its
    target box and its staging. *)
Definition sumx_live (elem : nat) (S : layout) (ps : list axis) (T : layout) (pt : list axis) (w : nat) : nat :=
  box_bytes S elem w + box_bytes T elem w + sumx_staging_bytes elem S ps T pt w.

(** The stated figure: [(largest source box + (1 + |G|) * largest target box) * elem]. *)
Definition sumx_live_bytes (elem : nat) (S : layout) (ps : list axis) (T : layout) : nat :=
  (fst (largest_boxes S T) + (1 + group_size (ly_m S) ps) * snd (largest_boxes S T)) * elem.

Record sxcall : Type := {
  sx_from : layout;
  sx_to : layout;
  sx_group_size : nat;                  (** staging arrays of a designated rank *)
  sx_designated : nat -> bool;
  sx_pieces : nat -> list sx_piece;     (** per world rank, in posting order *)
  sx_sends : nat -> list (nat * box);   (** per world rank: (receiver, cell) *)
  sx_array_bytes : nat -> nat;          (** per world rank, bytes of one staging array *)
  sx_staging : nat -> nat;              (** per world rank, bytes *)
  sx_workspace_bytes : nat              (** the header's figure: the largest staging *)
}.

Definition lower_sumx (elem : nat) (S : layout) (ps : list axis) (T : layout) (pt : list axis) : sxcall :=
  {| sx_from := S; sx_to := T; sx_group_size := group_size (ly_m S) ps;
     sx_designated := designated T pt;
     sx_pieces := sumx_pieces S ps T pt;
     sx_sends := sumx_sends S ps T pt;
     sx_array_bytes := sumx_array_bytes elem T;
     sx_staging := sumx_staging_bytes elem S ps T pt;
     sx_workspace_bytes := sumx_workspace_bytes elem S ps T pt |}.

(** ** The interpreter over per-rank values of a commutative monoid *)

(** Where global index [i] sits in world rank [s]'s source array. *)
Definition source_index (S : layout) (s : nat) (i : list nat) : list nat :=
  match pl_box S s with Some sb => box_local sb i | None => i end.

(** Element [l] of [r]'s destination: staging array [k] (bytes
    [k * sx_array_bytes r] onwards of the workspace) holds, on the cell of
    the piece holding [l]'s global index [i], sender [k]'s value at [i];
    the destination is the sum of the arrays in order.  A rank without
    pieces holds zero; a rank outside the target mesh has no destination
    box and keeps what it had. *)
Definition sumx_dst (M : cmonoid) (x : sxcall) (src : state (carrier M)) : state (carrier M) :=
  fun r l =>
    match pl_box (sx_to x) r with
    | Some tb =>
        let i := box_global tb l in
        match find (fun p => box_has (xp_cell p) i) (sx_pieces x r) with
        | Some p => msum M (map (fun s => src s (source_index (sx_from x) s i)) (xp_senders p))
        | None => zero M
        end
    | None => src r l
    end.

(** ** Either kind of pending-sum plan *)

Inductive sum_lowered : Type :=
| SumCalls (pg : sum_program)
| SumExchangeCall (x : sxcall).

Definition lower_sumplan (elem : nat) (fl : fill) (S : layout) (ps : list axis) (T : layout) (pt : list axis)
    (sp : sumplan) : sum_lowered :=
  match sp with
  | SumByCollectives pre rf p post => SumCalls (lower_sums elem fl S ps T pre rf p post)
  | SumByExchange => SumExchangeCall (lower_sumx elem S ps T pt)
  end.

Definition run_sumplan (M : cmonoid) (lw : sum_lowered) (src other : state (carrier M))
  : sbuffers (carrier M) :=
  match lw with
  | SumCalls pg => interp_sums M pg src other
  | SumExchangeCall x => write_sbuffer (initial_sbuffers src other) SDst (sumx_dst M x src)
  end.

(** The live bytes the command states and checks against a budget. *)
Definition sumplan_live_bytes (elem : nat) (fl : fill) (S : layout) (ps : list axis) (T : layout)
    (pt : list axis) (sp : sumplan) : nat :=
  match lower_sumplan elem fl S ps T pt sp with
  | SumCalls pg => sum_live_bytes pg (local_size (ly_m S) (ly_ty S) * elem) (local_size (ly_m S) (ly_ty T) * elem)
  | SumExchangeCall _ => sumx_live_bytes elem S ps T
  end.

Definition sumplan_workspace_bytes (lw : sum_lowered) : nat :=
  match lw with
  | SumCalls pg => sum_workspace_bytes pg
  | SumExchangeCall x => sx_workspace_bytes x
  end.
