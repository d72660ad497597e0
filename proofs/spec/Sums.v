(** * Pending sums: the model of the "Pending sums" section of Part 2.

    A pending-sum type is a Part 1 type with a set [S] of mesh axes: the value
    of the global array at an index is the sum, over one [S]-group (the
    devices that differ only in their [S] coordinates), of what the members
    hold there.  Values live in an abstract commutative monoid, a record
    argument rather than axioms, so that every theorem over it is closed.

    The collectives on pending sums move data as Part 1's do: [sum_wire]
    lists, from the collective and the old type alone, the (device, local
    index) pairs whose old values are added, in ascending member order, into
    one position of the new local array. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics.

(** ** A commutative monoid *)

Record cmonoid := {
  carrier : Type;
  zero : carrier;
  add : carrier -> carrier -> carrier;
  add_assoc : forall x y z, add x (add y z) = add (add x y) z;
  add_comm : forall x y, add x y = add y x;
  add_zero_l : forall x, add zero x = x
}.

(** The sum of a list, accumulated left to right from [zero], which is the
    order the runtime adds in (it fixes floating-point results). *)
Definition msum (M : cmonoid) (xs : list (carrier M)) : carrier M :=
  fold_left (add M) xs (zero M).

(** ** Pending-sum types *)

(** A Part 1 type and the axes over which the array is a pending sum.
    [S] is a set: its order is irrelevant, sums follow the mesh order. *)
Definition pty : Type := (ty * list axis)%type.

(** Well-formed: a well-formed type, pending axes distinct, of the mesh, and
    sharding no dimension. *)
Definition pty_wf (m : mesh) (p : pty) : bool :=
  ty_wf m (fst p) && nodupb (snd p)
  && forallb (fun a => memb a (mesh_axes m) && negb (memb a (ty_axes (fst p)))) (snd p).

(** [group_sum_along M m S xs c f]: the sum of [f] over the devices obtained
    from [c] by setting, for each axis of [xs] that is in [S], its coordinate
    to every value of its range; the first axis of [xs] is the outermost. *)
Fixpoint group_sum_along (M : cmonoid) (m : mesh) (ps xs : list axis) (c : device)
    (f : device -> carrier M) : carrier M :=
  match xs with
  | [] => f c
  | x :: xs' =>
      if memb x ps
      then msum M (map (fun k => group_sum_along M m ps xs' (set_coord c x k) f)
                       (seq 0 (axis_size m x)))
      else group_sum_along M m ps xs' c f
  end.

(** The sum of [f] over the [S]-group of [c], in ascending rank order (ranks
    are row-major in the mesh order, the first axis most significant). *)
Definition group_sum (M : cmonoid) (m : mesh) (ps : list axis) (c : device)
    (f : device -> carrier M) : carrier M :=
  group_sum_along M m ps (mesh_axes m) c f.

(** What the [S]-group of rank [r] sums to at local index [l]. *)
Definition pending_value (M : cmonoid) (m : mesh) (ps : list axis)
    (st : state (carrier M)) : state (carrier M) :=
  fun r l => group_sum M m ps (device_of_rank m r) (fun c => st (rank m c) l).

(** [sholds M m (t, S) g st]: for every device and local index of its box
    under [t], the sum over the device's [S]-group of the members' values there
    is the global array's value at the global index of that position.  (The
    members of a group have the same box: [S] shards no dimension.) *)
Definition sholds (M : cmonoid) (m : mesh) (p : pty) (g : list nat -> carrier M)
    (st : state (carrier M)) : Prop :=
  holds m (fst p) g (pending_value M m (snd p) st).

(** ** The collectives on pending sums *)

Inductive sum_step : Type :=
| ReduceScatter (d : nat) (a : axis)  (** sum over [a], keep chunk [c[a]] of dimension [d] *)
| AllReduce (a : axis)                (** sum over [a], replicated over [a] *)
| AddPending (a : axis).              (** make [a] pending ([fill]: who keeps the value) *)

Inductive sum_error : Type :=
| SumDimOutOfRange (d : nat)
| NotPending (a : axis)                      (** the axis is not a pending axis *)
| ScatterNotDividing (d : nat) (a : axis)    (** [|a|] does not divide [n_d] *)
| PendingNotInMesh (a : axis)
| PendingInUse (a : axis)                    (** the axis shards a dimension *)
| AlreadyPending (a : axis).

Definition remove_axis (a : axis) (ps : list axis) : list axis :=
  filter (fun x => negb (Nat.eqb x a)) ps.

(** The type after a step, or why it does not apply. *)
Definition sum_step_type (m : mesh) (p : pty) (k : sum_step) : res sum_error pty :=
  let '(t, ps) := p in
  match k with
  | ReduceScatter d a =>
      if negb (memb a ps) then Error (NotPending a) else
      match nth_error t d with
      | None => Error (SumDimOutOfRange d)
      | Some (xs, n) =>
          if negb (extent m (xs, n) mod axis_size m a =? 0)
          then Error (ScatterNotDividing d a)
          else OK (set_dim t d (xs ++ [a], n), remove_axis a ps)
      end
  | AllReduce a =>
      if negb (memb a ps) then Error (NotPending a) else OK (t, remove_axis a ps)
  | AddPending a =>
      if negb (memb a (mesh_axes m)) then Error (PendingNotInMesh a)
      else if memb a (ty_axes t) then Error (PendingInUse a)
      else if memb a ps then Error (AlreadyPending a)
      else OK (t, a :: ps)
  end.

(** The members of [c]'s group along axis [a], in ascending order. *)
Definition along (m : mesh) (c : device) (a : axis) : list device :=
  map (set_coord c a) (seq 0 (axis_size m a)).

(** The old (device, local index) pairs added into local index [l] of device
    [c].  A reduce-scatter reads, on every member along [a], the position a
    [dyn_slice(d, a)] of Part 1 would read on [c]. *)
Definition sum_wire (m : mesh) (p : pty) (k : sum_step) (c : device) (l : list nat)
  : list (device * list nat) :=
  match k with
  | ReduceScatter d a =>
      let l' := snd (wire m (fst p) (DynSlice d a) c l) in
      map (fun c' => (c', l')) (along m c a)
  | AllReduce a => map (fun c' => (c', l)) (along m c a)
  | AddPending a => if c a =? 0 then [(c, l)] else []
  end.

Definition exec_sum_step (M : cmonoid) (m : mesh) (p : pty) (k : sum_step)
    (st : state (carrier M)) : state (carrier M) :=
  fun r l => msum M (map (fun src => st (rank m (fst src)) (snd src))
                         (sum_wire m p k (device_of_rank m r) l)).

(** Elements rank [r] receives in one step: the contributions to its new
    local array that come from another rank. *)
Definition sum_received (m : mesh) (p : pty) (k : sum_step) (r : nat) : nat :=
  match sum_step_type m p k with
  | OK p' =>
      length (filter (fun src => negb (rank m (fst src) =? r))
                     (flat_map (sum_wire m p k (device_of_rank m r))
                               (box_indices (local_shape m (fst p')))))
  | Error _ => 0
  end.

(** The closed form (proven equal to [sum_received]): every position of the
    new local array gets one contribution from each other member along [a]. *)
Definition sum_recv_count (m : mesh) (p' : pty) (k : sum_step) : nat :=
  match k with
  | ReduceScatter _ a | AllReduce a => (axis_size m a - 1) * local_size m (fst p')
  | AddPending _ => 0
  end.

(** ** How a new pending axis leaves the value

    [KeepOne]: member 0 along the axis keeps its value and the others hold
    the identity, which every commutative monoid allows (sum, prod).
    [KeepAll]: every member keeps its value and no data moves, which needs
    a group of copies to combine to the value ([idempotent]: max, min; avg
    divides by the group size, [Reductions.avg_carrier]).  The reductions
    are the same in both. *)
Inductive fill : Type := KeepOne | KeepAll.

(** [x + x = x]: a group of copies of a value combines to the value. *)
Definition idempotent (M : cmonoid) : Prop := forall x, add M x x = x.

Definition exec_fill_step (M : cmonoid) (fl : fill) (m : mesh) (p : pty) (k : sum_step)
    (st : state (carrier M)) : state (carrier M) :=
  match fl, k with
  | KeepAll, AddPending _ => st
  | _, _ => exec_sum_step M m p k st
  end.

(** ** Sequences of steps *)

Fixpoint sum_plan_type (m : mesh) (p : pty) (ks : list sum_step) : res sum_error pty :=
  match ks with
  | [] => OK p
  | k :: ks' =>
      match sum_step_type m p k with
      | OK p' => sum_plan_type m p' ks'
      | Error e => Error e
      end
  end.

(** A step that does not type-check stops the execution; [sum_plan_type]
    rejects such sequences. *)
Fixpoint exec_sum_plan (M : cmonoid) (fl : fill) (m : mesh) (p : pty) (ks : list sum_step)
    (st : state (carrier M)) : state (carrier M) :=
  match ks with
  | [] => st
  | k :: ks' =>
      match sum_step_type m p k with
      | OK p' => exec_sum_plan M fl m p' ks' (exec_fill_step M fl m p k st)
      | Error _ => st
      end
  end.
