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

(** The source ranks whose box has [i], in source-mesh order. *)
Definition holders_of (S : layout) (i : list nat) : list nat :=
  filter (fun s => has_opt (pl_box S s) i) (pm_ranks (ly_mesh S)).

(** The target ranks that need [i] from elsewhere, in target-mesh order. *)
Definition needers_of (S T : layout) (i : list nat) : list nat :=
  filter (fun r => has_opt (pl_box T r) i && negb (has_opt (pl_box S r) i))
         (pm_ranks (ly_mesh T)).

(** Self first; else the [k]-th rank needing [i] takes it from holder [k mod |holders|]. *)
Definition spread_holder (S T : layout) : holder_choice :=
  fun r i =>
    if has_opt (pl_box S r) i then r
    else
      let hs := holders_of S i in
      let k := match index_of r (needers_of S T i) with Some k => k | None => 0 end in
      nth (k mod length hs) hs r.
