(** * The direct exchange (Part 2 of the model).

    [exchange S T h] takes any source layout to any target layout of the
    same global shape, on any two placed meshes, in one step.  For target
    rank [r] and global index [i] of its box, [h r i] names the source rank
    to copy [i] from (the holder choice, a parameter).  The data movement
    ([exchange_wire]) reads only the source layout and [h]: it never
    consults the target boxes of other ranks, so [exchange_sound] is not
    true by definition.  What a rank receives is counted from the same map
    ([wire_received]).

    [spread_holder] is the concrete choice the command uses: a rank that
    holds [i] keeps its own copy; otherwise the ranks that need [i] are
    spread over the ranks that hold it, so that replicas share the sending. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Layout.

(** Target rank, global index -> the source rank that sends it. *)
Definition holder_choice : Type := nat -> list nat -> nat.

Definition exchange_wire (S T : layout) (h : holder_choice) : wire_map :=
  fun r l =>
    match pl_box T r with
    | Some b =>
        let i := box_global b l in
        let s := h r i in
        (s, match pl_box S s with Some sb => box_local sb i | None => i end)
    | None => (r, l)
    end.

Definition exchange {A} (S T : layout) (h : holder_choice) (st : state A) : state A :=
  run_wire (exchange_wire S T h) st.

Definition exchange_received (S T : layout) (h : holder_choice) (r : nat) : nat :=
  wire_received (exchange_wire S T h) (pl_shapes T) r.

(** The world rank and the box of every device of a layout's mesh, in mesh
    order (each box found from its mesh rank, not by searching the world
    rank, and the ranks paired in one pass: one box per device;
    [Exchangeproof.mesh_boxes_by_position] gives the [k]-th pair). *)
Definition mesh_boxes (L : layout) : list (nat * box) :=
  combine (pm_ranks (ly_mesh L))
          (map (fun k => dev_box (ly_m L) (ly_ty L) (device_of_rank (ly_m L) k))
               (seq 0 (length (pm_ranks (ly_mesh L))))).

(** The source ranks whose box has [i], in source-mesh order. *)
Definition holders_in (boxes_S : list (nat * box)) (i : list nat) : list nat :=
  map fst (filter (fun wb => box_has (snd wb) i) boxes_S).

Definition holders_of (S : layout) (i : list nat) : list nat := holders_in (mesh_boxes S) i.

(** The target ranks that need [i] from elsewhere, in target-mesh order. *)
Definition needers_in (boxes_S boxes_T : list (nat * box)) (i : list nat) : list nat :=
  let hs := holders_in boxes_S i in
  map fst (filter (fun wb => box_has (snd wb) i && negb (memb (fst wb) hs)) boxes_T).

Definition needers_of (S T : layout) (i : list nat) : list nat :=
  needers_in (mesh_boxes S) (mesh_boxes T) i.

(** Self first; else the [k]-th rank needing [i] takes it from holder
    [k mod |holders|].  [spread_in] takes both meshes' boxes computed once. *)
Definition spread_in (boxes_S boxes_T : list (nat * box)) (S : layout) : holder_choice :=
  fun r i =>
    if has_opt (pl_box S r) i then r
    else
      let hs := holders_in boxes_S i in
      let k := match index_of r (needers_in boxes_S boxes_T i) with Some k => k | None => 0 end in
      nth (k mod length hs) hs r.

Definition spread_holder (S T : layout) : holder_choice := spread_in (mesh_boxes S) (mesh_boxes T) S.

(** The ceil block of every dimension that global index [i] falls in.
    [spread_holder] is the same on indices with the same blocks under the
    source and the target layouts ([Exchangeproof.spread_holder_blockwise]),
    so a generator may choose holders once per such cell. *)
Fixpoint block_key (m : mesh) (t : ty) (i : list nat) : list nat :=
  match t, i with
  | d :: t', x :: i' => x / block_size m d :: block_key m t' i'
  | _, _ => []
  end.

(** ** The exchange as messages of boxes

    A target box is cut, in every dimension, at every source and target
    block boundary; on each cell [spread_holder] is constant, so each cell
    is one message from one holder ([recv_messages]; a message from [r]
    itself is a local copy).  [Exchangeproof.recv_messages_exact]: the
    cells of a rank's messages cover its target box exactly once, each
    from the holder [spread_holder] names for every index in it. *)

(** [[lo, hi)] cut at every multiple of [bs] and of [bt] ([fuel]: [hi - lo]). *)
Fixpoint cuts (fuel lo hi bs bt : nat) : list (nat * nat) :=
  match fuel with
  | 0 => []
  | S f =>
      if lo <? hi then
        let next := Nat.min hi (Nat.min (S (lo / bs) * bs) (S (lo / bt) * bt)) in
        (lo, next - lo) :: cuts f next hi bs bt
      else []
  end.

(** Per dimension of a target box: its cells, cut at every source and target block boundary. *)
Fixpoint dims_cuts (tb : box) (bss bts : list nat) : list (list (nat * nat)) :=
  match tb, bss, bts with
  | (lo, n) :: tb', bs :: bss', bt :: bts' =>
      cuts n lo (lo + n) (Nat.max 1 bs) (Nat.max 1 bt) :: dims_cuts tb' bss' bts'
  | _, _, _ => []
  end.

Fixpoint cell_boxes (ivss : list (list (nat * nat))) : list box :=
  match ivss with
  | [] => [[]]
  | ivs :: rest => flat_map (fun iv => map (cons iv) (cell_boxes rest)) ivs
  end.

Definition recv_cells (S T : layout) (r : nat) : list box :=
  match pl_box T r with
  | Some tb => cell_boxes (dims_cuts tb (map (block_size (ly_m S)) (ly_ty S))
                                        (map (block_size (ly_m T)) (ly_ty T)))
  | None => []
  end.

(** What rank [r] receives: per cell of its target box, the sending rank and the cell. *)
Definition recv_messages (S T : layout) (r : nat) : list (nat * box) :=
  let h := spread_in (mesh_boxes S) (mesh_boxes T) S in
  map (fun c => (h r (map fst c), c)) (recv_cells S T r).
