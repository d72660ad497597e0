(** * Layouts over placed meshes (Part 2 of the model).

    A placed mesh is a mesh and the world ranks of its devices, row-major.
    A dimension sharded [P] ways is cut into ceil blocks of [b = ceil(N/P)]:
    the device with chunk index [j] holds [[min(N, j*b), min(N, (j+1)*b))],
    possibly short or empty, as a dense local array of its true extents.  A
    world rank outside the mesh holds nothing.  On an even problem over one
    mesh placed at rank 0 these are Part 1's boxes ([Layoutproof.v]).

    Data movement between layouts is given, like Part 1's collectives, by an
    index map over world ranks ([wire_map]); what a rank receives is counted
    from that map alone ([wire_received]). *)

From Coq Require Import List Arith Lia Bool Mergesort.
Import ListNotations.
From Redist Require Import Model Semantics Checker.

(** ** Placed meshes *)

Record pmesh : Type := { pm_mesh : mesh; pm_ranks : list nat }.

(** [{x:4} @ k]: the devices on world ranks [k .. k+P-1]. *)
Definition placed_at (m : mesh) (k : nat) : pmesh :=
  {| pm_mesh := m; pm_ranks := seq k (mesh_size m) |}.

(** Distinct world ranks: the list, or else the list sorted once
    (mergesort, O(P log P) for an explicit rank list of 65,536 devices), is
    strictly increasing.  The first test spares the sort on the common
    meshes placed at a rank ([placed_at]), whose list already increases.
    This is [NoDup] ([Layoutproof.ranks_distinct_NoDup]). *)
Fixpoint increasingb (ws : list nat) : bool :=
  match ws with
  | x :: ((y :: _) as ws') => (x <? y) && increasingb ws'
  | _ => true
  end.

Definition ranks_distinct (ws : list nat) : bool := increasingb ws || increasingb (NatSort.sort ws).

(** Well-formed: a well-formed mesh and one distinct world rank per device. *)
Definition pmesh_wf (pm : pmesh) : bool :=
  mesh_wf (pm_mesh pm) && (length (pm_ranks pm) =? mesh_size (pm_mesh pm))
  && ranks_distinct (pm_ranks pm).

(** The position of [w] in [ws]: the mesh rank of world rank [w]. *)
Fixpoint index_of (w : nat) (ws : list nat) : option nat :=
  match ws with
  | [] => None
  | x :: ws' => if x =? w then Some 0 else option_map S (index_of w ws')
  end.

(** ** Ceil blocks *)

Definition ceil_div (n p : nat) : nat := (n + p - 1) / p.

Definition block_size (m : mesh) (d : dimty) : nat := ceil_div (snd d) (shards m d).

(** A box: per dimension, its corner and its extent. *)
Definition box : Type := list (nat * nat).

(** Device [c]'s block of dimension [d]: its corner and its (clipped) extent. *)
Definition dim_block (m : mesh) (d : dimty) (c : device) : nat * nat :=
  let b := block_size m d in
  let j := radix m c (fst d) in
  let lo := Nat.min (snd d) (j * b) in
  (lo, Nat.min (snd d) (S j * b) - lo).

Definition dev_box (m : mesh) (t : ty) (c : device) : box := map (fun d => dim_block m d c) t.

Definition box_shape (b : box) : list nat := map snd b.

Definition box_size (b : box) : nat := prod (box_shape b).

(** The global index at local index [l] of a box. *)
Fixpoint box_global (b : box) (l : list nat) : list nat :=
  match b, l with
  | (lo, _) :: b', i :: l' => (lo + i) :: box_global b' l'
  | _, _ => []
  end.

(** The local index of global index [i] in a box. *)
Fixpoint box_local (b : box) (i : list nat) : list nat :=
  match b, i with
  | (lo, _) :: b', x :: i' => (x - lo) :: box_local b' i'
  | _, _ => []
  end.

(** The box contains global index [i]. *)
Fixpoint box_has (b : box) (i : list nat) : bool :=
  match b, i with
  | [], [] => true
  | (lo, n) :: b', x :: i' => (lo <=? x) && (x <? lo + n) && box_has b' i'
  | _, _ => false
  end.

(** ** Layouts *)

Record layout : Type := { ly_mesh : pmesh; ly_ty : ty }.

Definition ly_m (L : layout) : mesh := pm_mesh (ly_mesh L).

(** A type over ceil blocks: mesh axes only, none twice; no divisibility. *)
Definition lty_wf (m : mesh) (t : ty) : bool :=
  forallb (fun d => forallb (fun x => memb x (mesh_axes m)) (fst d)) t && nodupb (ty_axes t).

Definition layout_wf (L : layout) : bool := pmesh_wf (ly_mesh L) && lty_wf (ly_m L) (ly_ty L).

(** A source and a target layout of one array: both well-formed, same global shape. *)
Definition layouts_wf (S T : layout) : bool :=
  layout_wf S && layout_wf T && list_eqb (global_shape (ly_ty S)) (global_shape (ly_ty T)).

(** The box of world rank [w]; [None]: [w] is outside the mesh and holds nothing. *)
Definition pl_box (L : layout) (w : nat) : option box :=
  match index_of w (pm_ranks (ly_mesh L)) with
  | Some k => Some (dev_box (ly_m L) (ly_ty L) (device_of_rank (ly_m L) k))
  | None => None
  end.

Definition has_opt (ob : option box) (i : list nat) : bool :=
  match ob with Some b => box_has b i | None => false end.

(** Every rank of the mesh holds exactly its box of [g], row-major in the box. *)
Definition pl_holds {A} (L : layout) (g : list nat -> A) (st : state A) : Prop :=
  forall w b, pl_box L w = Some b ->
  forall l, in_box (box_shape b) l -> st w l = g (box_global b l).

(** ** Data movement over world ranks *)

(** The local shape of each world rank; [None]: it holds nothing. *)
Definition shapes : Type := nat -> option (list nat).

Definition pl_shapes (L : layout) : shapes := fun w => option_map box_shape (pl_box L w).

Definition positions (sh : shapes) (r : nat) : list (list nat) :=
  match sh r with Some s => box_indices s | None => [] end.

(** [wr r l = (r', l')]: the element at local index [l] of rank [r]
    afterwards is the one at [l'] of rank [r'] before. *)
Definition wire_map : Type := nat -> list nat -> nat * list nat.

Definition run_wire {A} (wr : wire_map) (st : state A) : state A :=
  fun r l => st (fst (wr r l)) (snd (wr r l)).

(** Elements rank [r] receives: positions of its new local array (shapes
    [sh]) whose element comes from another rank. *)
Definition wire_received (wr : wire_map) (sh : shapes) (r : nat) : nat :=
  length (filter (fun l => negb (fst (wr r l) =? r)) (positions sh r)).

(** ** The traffic lower bound *)

(** The global indices of [r]'s target box that are not in its source box. *)
Definition missing (S T : layout) (r : nat) : list (list nat) :=
  match pl_box T r with
  | Some b => filter (fun i => negb (has_opt (pl_box S r) i))
                     (map (box_global b) (box_indices (box_shape b)))
  | None => []
  end.

(** Elements two boxes share ([overlap] per dimension). *)
Definition overlap_size (b b' : box) : nat :=
  prod (map (fun p => overlap (fst (fst p)) (snd (fst p)) (fst (snd p)) (snd (snd p)))
            (combine b b')).

(** The number the command prints as rank [r]'s lower bound: its target
    box's size less what its source box shares with it. *)
Definition recv_lower_bound (S T : layout) (r : nat) : nat :=
  match pl_box T r with
  | Some b => box_size b - match pl_box S r with Some sb => overlap_size sb b | None => 0 end
  | None => 0
  end.
