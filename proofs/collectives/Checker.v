(** * The plan checker.

    [check m src tgt p] type-checks [p] step by step from [src] and reports
    each step's type, local size and elements received per rank, the peak
    local size, and that the plan ends at [tgt].  [Checkerproof.v] proves
    that an accepted plan moves every device's source box to its target box,
    and that the reported peak and traffic are those of the execution. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Semantics.

Inductive check_error : Type :=
| BadMesh                          (** repeated axis name or size 0 *)
| BadSource                        (** the source type is not well-formed *)
| BadTarget                        (** the target type is not well-formed *)
| GlobalShapeMismatch              (** source and target global shapes differ *)
| StepFailed (i : nat) (e : step_error)   (** step [i] (from 0) does not apply *)
| WrongFinalType (t : ty).         (** the plan ends at [t], not at the target *)

Record step_report : Type := {
  sr_collective : collective;
  sr_type : ty;                    (** the type after the step *)
  sr_local_size : nat;             (** its local size *)
  sr_recv : nat -> nat             (** elements received, per rank *)
}.

Record report : Type := {
  rp_steps : list step_report;
  rp_peak : nat                    (** largest local size along the plan *)
}.

Definition dimty_eqb (d e : dimty) : bool :=
  list_eqb (fst d) (fst e) && Nat.eqb (snd d) (snd e).

Fixpoint ty_eqb (t u : ty) : bool :=
  match t, u with
  | [], [] => true
  | d :: t', e :: u' => dimty_eqb d e && ty_eqb t' u'
  | _, _ => false
  end.

(** ** Per-rank traffic without building devices

    [recv_count] reads a rank's coordinates through [device_of_rank] and,
    for a permute, compares the rank of the holder of its new box with its
    own: a cost in the number of axes squared per rank, paid for every rank
    of meshes of up to 65,536 devices.  [step_recv] gives the same numbers
    ([Trafficproof.step_recv_eq]) from the rank's digits [r / w mod s],
    with the weights [w] and sizes [s] looked up once per step, and
    compares only the dimensions a permute changes. *)

(** Each axis of [m] with its weight in the row-major rank and its size. *)
Fixpoint rank_weights (m : mesh) : list (axis * (nat * nat)) :=
  match m with
  | [] => []
  | (x, s) :: m' => (x, (mesh_size m', s)) :: rank_weights m'
  end.

Fixpoint weight_of (ws : list (axis * (nat * nat))) (x : axis) : nat * nat :=
  match ws with
  | [] => (1, 1)
  | (y, p) :: ws' => if Nat.eqb x y then p else weight_of ws' x
  end.

(** The mixed-radix value of the digits [(r / w) mod s] of rank [r]. *)
Definition radix_of_rank (digits : list (nat * nat)) (r : nat) : nat :=
  fold_left (fun acc '(w, s) => acc * s + r / w mod s) digits 0.

(** The digits of the dimensions whose axes differ between [t] and [t']. *)
Fixpoint moved_dims (ws : list (axis * (nat * nat))) (t t' : ty)
  : list (list (nat * nat) * list (nat * nat)) :=
  match t, t' with
  | (xs, _) :: u, (ys, _) :: u' =>
      if list_eqb xs ys then moved_dims ws u u'
      else (map (weight_of ws) xs, map (weight_of ws) ys) :: moved_dims ws u u'
  | _, _ => []
  end.

(** A rank receives its whole new box in a permute unless its chunk index
    is the same under both types in every dimension. *)
Definition permute_recv (m : mesh) (t t' : ty) : nat -> nat :=
  let moved := moved_dims (rank_weights m) t t' in
  let n := local_size m t in
  fun r => if forallb (fun '(a, b) => radix_of_rank a r =? radix_of_rank b r) moved then 0 else n.

Definition step_recv (m : mesh) (t : ty) (k : collective) : nat -> nat :=
  match k with
  | AllPermute t' => permute_recv m t t'
  | _ => let n := recv_count m t k 0 in fun _ => n
  end.

(** Type-check the steps of [p] from type [t]; [i] numbers the steps. *)
Fixpoint check_steps (m : mesh) (t : ty) (p : plan) (i : nat)
  : res check_error (list step_report * ty) :=
  match p with
  | [] => OK ([], t)
  | k :: p' =>
      match step_type m t k with
      | Error e => Error (StepFailed i e)
      | OK t' =>
          match check_steps m t' p' (S i) with
          | Error e => Error e
          | OK (reps, final) =>
              OK ({| sr_collective := k; sr_type := t'; sr_local_size := local_size m t';
                     sr_recv := step_recv m t k |} :: reps, final)
          end
      end
  end.

Definition check (m : mesh) (src tgt : ty) (p : plan) : res check_error report :=
  if negb (mesh_wf m) then Error BadMesh
  else if negb (ty_wf m src) then Error BadSource
  else if negb (ty_wf m tgt) then Error BadTarget
  else if negb (list_eqb (global_shape src) (global_shape tgt)) then Error GlobalShapeMismatch
  else
    match check_steps m src p 0 with
    | Error e => Error e
    | OK (reps, final) =>
        if ty_eqb final tgt
        then OK {| rp_steps := reps;
                   rp_peak := fold_left Nat.max (map sr_local_size reps) (local_size m src) |}
        else Error (WrongFinalType final)
    end.

(** ** Quantities the command line reports (not part of the trusted claims) *)

(** The largest value of [f] over the ranks of [m]. *)
Definition max_over_ranks (m : mesh) (f : nat -> nat) : nat :=
  fold_left (fun acc r => Nat.max acc (f r)) (seq 0 (mesh_size m)) 0.

(** Length of the overlap of [[a, a + n)] and [[b, b + k)]. *)
Definition overlap (a n b k : nat) : nat := Nat.min (a + n) (b + k) - Nat.max a b.

(** Elements of rank [r]'s target box that are not in its source box: no plan
    can make [r] receive fewer.  Per dimension, the box of a type starts at
    its extent times the rank's chunk index, read from the rank's digits as
    in [step_recv] ([Trafficproof.lower_bound_recv_boxes] states it with
    devices and offsets). *)
Definition lower_bound_recv (m : mesh) (src tgt : ty) : nat -> nat :=
  let ws := rank_weights m in
  let dims := map (fun '(ds, dt) => (extent m ds, map (weight_of ws) (fst ds),
                                     extent m dt, map (weight_of ws) (fst dt)))
                  (combine src tgt) in
  let n := local_size m tgt in
  fun r => n - prod (map (fun '(es, a, et, b) =>
                            overlap (es * radix_of_rank a r) es (et * radix_of_rank b r) et) dims).
