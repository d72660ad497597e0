(** * The collectives: typing, data movement and traffic.

    The data movement of each collective is an index map [wire]: the element
    that device [c] stores at local index [l] after the collective is the one
    that device [c'] stored at local index [l'] before, where
    [(c', l') = wire m t k c l] is computed from the collective, its
    parameters and the old type alone.  It never mentions the boxes of the
    result type, so the soundness theorems in [Semanticsproof.v] are not true
    by definition.  States are indexed by rank: a step reads the old state at
    the rank of [c'].  The elements a rank receives are counted from the same
    map: the positions of its new array whose source is another rank. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model.

Inductive collective : Type :=
| DynSlice (d : nat) (x : axis)      (** keep chunk [c[x]] of dimension [d] *)
| AllGather (d : nat)                (** gather over the last axis of dimension [d] *)
| AllToAll (s t : nat)               (** move the last axis of [s] to the end of [t] *)
| AllPermute (t' : ty).              (** move to a type with the same local shape *)

Definition plan := list collective.

(** CompCert-style results. *)
Inductive res (E A : Type) : Type :=
| OK (a : A)
| Error (e : E).
Arguments OK {E A} a.
Arguments Error {E A} e.

Inductive step_error : Type :=
| DimOutOfRange (d : nat)
| AxisNotInMesh (x : axis)
| AxisInUse (x : axis)
| SliceNotDividing (d : nat) (x : axis)       (** [|x|] does not divide [n_d] *)
| GatherUnsharded (d : nat)                   (** dimension [d] has no axis to gather or move *)
| SameDims (d : nat)                          (** all_to_all from a dimension to itself *)
| AllToAllNotDividing (t : nat) (x : axis)    (** [|x|] does not divide [n_t] *)
| PermuteIllFormed                            (** the permute's type is not well-formed *)
| PermuteGlobalShape                          (** the permute's type has another global shape *)
| PermuteLocalShape.                          (** the permute's type has another local shape *)

Definition set_dim (t : ty) (d : nat) (dd : dimty) : ty := upd t d dd.

(** The type after a collective, or why it does not apply. *)
Definition step_type (m : mesh) (t : ty) (k : collective) : res step_error ty :=
  match k with
  | DynSlice d x =>
      match nth_error t d with
      | None => Error (DimOutOfRange d)
      | Some (xs, n) =>
          if negb (memb x (mesh_axes m)) then Error (AxisNotInMesh x)
          else if memb x (ty_axes t) then Error (AxisInUse x)
          else if negb (extent m (xs, n) mod axis_size m x =? 0)
          then Error (SliceNotDividing d x)
          else OK (set_dim t d (xs ++ [x], n))
      end
  | AllGather d =>
      match nth_error t d with
      | None => Error (DimOutOfRange d)
      | Some (xs, n) =>
          match split_last xs with
          | None => Error (GatherUnsharded d)
          | Some (ys, _) => OK (set_dim t d (ys, n))
          end
      end
  | AllToAll s u =>
      if Nat.eqb s u then Error (SameDims s) else
      match nth_error t s, nth_error t u with
      | None, _ => Error (DimOutOfRange s)
      | _, None => Error (DimOutOfRange u)
      | Some (xs, ns), Some (ys, nu) =>
          match split_last xs with
          | None => Error (GatherUnsharded s)
          | Some (xs', a) =>
              if negb (extent m (ys, nu) mod axis_size m a =? 0)
              then Error (AllToAllNotDividing u a)
              else OK (set_dim (set_dim t s (xs', ns)) u (ys ++ [a], nu))
          end
      end
  | AllPermute t' =>
      if negb (ty_wf m t') then Error PermuteIllFormed
      else if negb (list_eqb (global_shape t') (global_shape t)) then Error PermuteGlobalShape
      else if negb (list_eqb (local_shape m t') (local_shape m t)) then Error PermuteLocalShape
      else OK t'
  end.

Definition dim_of (t : ty) (d : nat) : dimty := nth d t ([], 0).

Definition last_axis (xs : list axis) : axis := last xs 0.

(** The device that holds, under [t], the box that [c] holds under [t']: in
    every dimension [d], the coordinates of [t]'s axes of [d] are set to the
    digits of [c]'s chunk index under [t']; other coordinates are [c]'s own.
    Chunk indices are read from the original device [c0]. *)
Fixpoint holder_from (m : mesh) (t t' : ty) (c0 c : device) : device :=
  match t, t' with
  | (xs, _) :: r, (ys, _) :: r' => holder_from m r r' c0 (set_radix m xs (radix m c0 ys) c)
  | _, _ => c
  end.

Definition holder (m : mesh) (t t' : ty) (c : device) : device := holder_from m t t' c c.

(** Where the element at local index [l] of device [c] comes from. *)
Definition wire (m : mesh) (t : ty) (k : collective) (c : device) (l : list nat)
  : device * list nat :=
  match k with
  | DynSlice d x =>
      let n' := extent m (dim_of t d) / axis_size m x in
      (c, upd l d (nth d l 0 + c x * n'))
  | AllGather d =>
      let a := last_axis (fst (dim_of t d)) in
      let n := extent m (dim_of t d) in
      (set_coord c a (nth d l 0 / n), upd l d (nth d l 0 mod n))
  | AllToAll s u =>
      let a := last_axis (fst (dim_of t s)) in
      let ns := extent m (dim_of t s) in
      let nu' := extent m (dim_of t u) / axis_size m a in
      (set_coord c a (nth s l 0 / ns),
       upd (upd l s (nth s l 0 mod ns)) u (c a * nu' + nth u l 0))
  | AllPermute t' => (holder m t t' c, l)
  end.

Definition exec_step {A} (m : mesh) (t : ty) (k : collective) (st : state A) : state A :=
  fun r l => let '(c', l') := wire m t k (device_of_rank m r) l in st (rank m c') l'.

(** Execution of a plan: each collective moves the data; the type follows.
    (A step that does not type-check stops the execution; the checker
    rejects such plans.) *)
Fixpoint exec {A} (m : mesh) (t : ty) (p : plan) (st : state A) : state A :=
  match p with
  | [] => st
  | k :: p' =>
      match step_type m t k with
      | OK t' => exec m t' p' (exec_step m t k st)
      | Error _ => st
      end
  end.

(** The types of the local arrays along an execution, source first. *)
Fixpoint trace (m : mesh) (t : ty) (p : plan) : list ty :=
  t :: match p with
       | [] => []
       | k :: p' =>
           match step_type m t k with
           | OK t' => trace m t' p'
           | Error _ => []
           end
       end.

(** Elements rank [r] receives in one collective: the positions of its new
    local array whose element comes from another rank. *)
Definition received (m : mesh) (t : ty) (k : collective) (r : nat) : nat :=
  match step_type m t k with
  | OK t' =>
      length (filter (fun l => negb (rank m (fst (wire m t k (device_of_rank m r) l)) =? r))
                     (box_indices (local_shape m t')))
  | Error _ => 0
  end.

(** Elements received by rank [r] in each step of a plan. *)
Fixpoint received_trace (m : mesh) (t : ty) (p : plan) (r : nat) : list nat :=
  match p with
  | [] => []
  | k :: p' =>
      match step_type m t k with
      | OK t' => received m t k r :: received_trace m t' p' r
      | Error _ => []
      end
  end.

(** The closed forms the checker reports (proven equal to [received]). *)
Definition recv_count (m : mesh) (t : ty) (k : collective) (r : nat) : nat :=
  match k with
  | DynSlice _ _ => 0
  | AllGather d => (axis_size m (last_axis (fst (dim_of t d))) - 1) * local_size m t
  | AllToAll s _ =>
      let a := axis_size m (last_axis (fst (dim_of t s))) in
      local_size m t / a * (a - 1)
  | AllPermute t' =>
      if rank m (holder m t t' (device_of_rank m r)) =? r then 0 else local_size m t
  end.
