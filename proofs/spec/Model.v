(** * The model of [docs/model.md]: meshes, devices, array types, boxes.

    Axes are named by numbers ([axis := nat]); the command line maps names to
    numbers.  A device is given by its coordinates, a function from axes to
    numbers; only the coordinates of mesh axes matter.  Ranks are row-major
    with the first mesh axis most significant. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.

(** ** Small list helpers (boolean, so that they extract) *)

Definition prod (xs : list nat) : nat := fold_right Nat.mul 1 xs.

Definition memb (x : nat) (xs : list nat) : bool := existsb (Nat.eqb x) xs.

Fixpoint nodupb (xs : list nat) : bool :=
  match xs with
  | [] => true
  | x :: xs' => negb (memb x xs') && nodupb xs'
  end.

Fixpoint list_eqb (xs ys : list nat) : bool :=
  match xs, ys with
  | [], [] => true
  | x :: xs', y :: ys' => Nat.eqb x y && list_eqb xs' ys'
  | _, _ => false
  end.

(** [upd l i v]: [l] with position [i] replaced by [v] (unchanged if out of range). *)
Fixpoint upd {A} (l : list A) (i : nat) (v : A) : list A :=
  match l, i with
  | [], _ => []
  | _ :: l', 0 => v :: l'
  | a :: l', S i' => a :: upd l' i' v
  end.

(** [split_last xs = Some (ys, a)] iff [xs = ys ++ [a]]. *)
Fixpoint split_last (xs : list nat) : option (list nat * nat) :=
  match xs with
  | [] => None
  | [a] => Some ([], a)
  | x :: xs' =>
      match split_last xs' with
      | Some (ys, a) => Some (x :: ys, a)
      | None => None
      end
  end.

(** ** Meshes and devices *)

Definition axis := nat.

(** An ordered list of named axes with their sizes. *)
Definition mesh := list (axis * nat).

Definition mesh_axes (m : mesh) : list axis := map fst m.

(** The size of axis [x]; 0 for an axis that is not in the mesh. *)
Fixpoint axis_size (m : mesh) (x : axis) : nat :=
  match m with
  | [] => 0
  | (y, s) :: m' => if Nat.eqb x y then s else axis_size m' x
  end.

Definition mesh_size (m : mesh) : nat := prod (map snd m).

(** Well-formed: distinct names, every size at least 1. *)
Definition mesh_wf (m : mesh) : bool :=
  nodupb (mesh_axes m) && forallb (fun p => 1 <=? snd p) m.

Definition device := axis -> nat.

Definition device_in (m : mesh) (c : device) : Prop :=
  forall x, In x (mesh_axes m) -> c x < axis_size m x.

Definition set_coord (c : device) (x : axis) (v : nat) : device :=
  fun y => if Nat.eqb y x then v else c y.

(** Mixed-radix value of the coordinates of [xs], the first axis most significant. *)
Definition radix (m : mesh) (c : device) (xs : list axis) : nat :=
  fold_left (fun acc x => acc * axis_size m x + c x) xs 0.

(** [set_radix m xs q c]: [c] with the coordinates of [xs] set to the
    mixed-radix digits of [q] (the first axis most significant). *)
Fixpoint set_radix (m : mesh) (xs : list axis) (q : nat) (c : device) : device :=
  match xs with
  | [] => c
  | x :: xs' =>
      let w := prod (map (axis_size m) xs') in
      set_radix m xs' (q mod w) (set_coord c x (q / w))
  end.

(** The MPI rank of a device, and the device of a rank. *)
Definition rank (m : mesh) (c : device) : nat := radix m c (mesh_axes m).

Definition device_of_rank (m : mesh) (r : nat) : device :=
  set_radix m (mesh_axes m) r (fun _ => 0).

(** ** Array types *)

(** One dimension: its mesh axes (major to minor) and its global extent. *)
Definition dimty : Type := (list axis * nat)%type.
Definition ty : Type := list dimty.

(** [P_d], the number of shards of a dimension. *)
Definition shards (m : mesh) (d : dimty) : nat := prod (map (axis_size m) (fst d)).

(** [n_d], the local extent of a dimension. *)
Definition extent (m : mesh) (d : dimty) : nat := snd d / shards m d.

Definition local_shape (m : mesh) (t : ty) : list nat := map (extent m) t.
Definition local_size (m : mesh) (t : ty) : nat := prod (local_shape m t).
Definition global_shape (t : ty) : list nat := map snd t.
Definition ty_axes (t : ty) : list axis := flat_map fst t.

(** Well-formed dimension: mesh axes only, extent at least 1, divisible by [P_d]. *)
Definition dim_wf (m : mesh) (d : dimty) : bool :=
  forallb (fun x => memb x (mesh_axes m)) (fst d)
  && (1 <=? snd d) && (snd d mod shards m d =? 0).

(** Well-formed type: every dimension well-formed, no axis used twice. *)
Definition ty_wf (m : mesh) (t : ty) : bool :=
  forallb (dim_wf m) t && nodupb (ty_axes t).

(** [off_d(c)]: the corner of device [c]'s box in dimension [d]. *)
Definition offset (m : mesh) (d : dimty) (c : device) : nat :=
  extent m d * radix m c (fst d).

(** The global index stored at local index [l] of device [c] under type [t]. *)
Fixpoint box_index (m : mesh) (t : ty) (c : device) (l : list nat) : list nat :=
  match t, l with
  | d :: t', i :: l' => (offset m d c + i) :: box_index m t' c l'
  | _, _ => []
  end.

(** [l] is a valid local index of an array of shape [shape]. *)
Fixpoint in_box (shape l : list nat) : Prop :=
  match shape, l with
  | [], [] => True
  | n :: shape', i :: l' => i < n /\ in_box shape' l'
  | _, _ => False
  end.

(** All local indices of an array of shape [shape], row-major. *)
Fixpoint box_indices (shape : list nat) : list (list nat) :=
  match shape with
  | [] => [[]]
  | n :: shape' => flat_map (fun i => map (cons i) (box_indices shape')) (seq 0 n)
  end.

(** ** Distributed states

    A state gives, for every rank and local index, the element stored there.
    [holds m t g st]: every device of [m] holds exactly its box of the global
    array [g] under type [t]. *)

Definition state (A : Type) := nat -> list nat -> A.

Definition holds {A} (m : mesh) (t : ty) (g : list nat -> A) (st : state A) : Prop :=
  forall r, r < mesh_size m ->
  forall l, in_box (local_shape m t) l ->
  st r l = g (box_index m t (device_of_rank m r) l).

(** ** Mesh refinement: axis [x] of size [q * r] seen as [hi] (size [q], major)
    and [lo] (size [r], minor), placed where [x] stood. *)

Record split := { sp_axis : axis; sp_hi : axis; sp_lo : axis; sp_q : nat; sp_r : nat }.

Definition split_mesh (sp : split) (m : mesh) : mesh :=
  flat_map (fun p => if Nat.eqb (fst p) (sp_axis sp)
                     then [(sp_hi sp, sp_q sp); (sp_lo sp, sp_r sp)] else [p]) m.

Definition split_axes (sp : split) (xs : list axis) : list axis :=
  flat_map (fun y => if Nat.eqb y (sp_axis sp) then [sp_hi sp; sp_lo sp] else [y]) xs.

Definition split_ty (sp : split) (t : ty) : ty :=
  map (fun d => (split_axes sp (fst d), snd d)) t.

(** The same device, seen on the refined mesh. *)
Definition split_device (sp : split) (c : device) : device :=
  fun y => if Nat.eqb y (sp_hi sp) then c (sp_axis sp) / sp_r sp
           else if Nat.eqb y (sp_lo sp) then c (sp_axis sp) mod sp_r sp
           else c y.

(** A split is valid on [m]: [x] is an axis of size [q * r], [hi] and [lo]
    are new, distinct names, and [q], [r] are at least 1. *)
Definition split_ok (m : mesh) (sp : split) : bool :=
  memb (sp_axis sp) (mesh_axes m)
  && (axis_size m (sp_axis sp) =? sp_q sp * sp_r sp)
  && (1 <=? sp_q sp) && (1 <=? sp_r sp)
  && negb (memb (sp_hi sp) (mesh_axes m)) && negb (memb (sp_lo sp) (mesh_axes m))
  && negb (Nat.eqb (sp_hi sp) (sp_lo sp)).

(** A refinement is a sequence of splits, applied left to right. *)
Definition refinement := list split.

Fixpoint refine_ok (m : mesh) (rf : refinement) : bool :=
  match rf with
  | [] => true
  | sp :: rf' => split_ok m sp && refine_ok (split_mesh sp m) rf'
  end.

Definition refine_mesh (rf : refinement) (m : mesh) : mesh :=
  fold_left (fun m sp => split_mesh sp m) rf m.

Definition refine_ty (rf : refinement) (t : ty) : ty :=
  fold_left (fun t sp => split_ty sp t) rf t.

Definition refine_device (rf : refinement) (c : device) : device :=
  fold_left (fun c sp => split_device sp c) rf c.
