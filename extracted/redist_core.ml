
(** val negb : bool -> bool **)

let negb = function
| true -> false
| false -> true

(** val fst : ('a1 * 'a2) -> 'a1 **)

let fst = function
| (x, _) -> x

(** val snd : ('a1 * 'a2) -> 'a2 **)

let snd = function
| (_, y) -> y

(** val app : 'a1 list -> 'a1 list -> 'a1 list **)

let rec app l m =
  match l with
  | [] -> m
  | a :: l1 -> a :: (app l1 m)

module Nat =
 struct
  (** val divmod : int -> int -> int -> int -> int * int **)

  let rec divmod x y q u =
    (fun fO fS n -> if n=0 then fO () else fS (n-1))
      (fun _ -> (q, u))
      (fun x' ->
      (fun fO fS n -> if n=0 then fO () else fS (n-1))
        (fun _ -> divmod x' y (Stdlib.Int.succ q) y)
        (fun u' -> divmod x' y q u')
        u)
      x
 end

(** val nth : int -> 'a1 list -> 'a1 -> 'a1 **)

let rec nth n l default =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> match l with
              | [] -> default
              | x :: _ -> x)
    (fun m -> match l with
              | [] -> default
              | _ :: t -> nth m t default)
    n

(** val nth_error : 'a1 list -> int -> 'a1 option **)

let rec nth_error l n =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> match l with
              | [] -> None
              | x :: _ -> Some x)
    (fun n0 -> match l with
               | [] -> None
               | _ :: l0 -> nth_error l0 n0)
    n

(** val last : 'a1 list -> 'a1 -> 'a1 **)

let rec last l d =
  match l with
  | [] -> d
  | a :: l0 -> (match l0 with
                | [] -> a
                | _ :: _ -> last l0 d)

(** val map : ('a1 -> 'a2) -> 'a1 list -> 'a2 list **)

let rec map f = function
| [] -> []
| a :: t -> (f a) :: (map f t)

(** val flat_map : ('a1 -> 'a2 list) -> 'a1 list -> 'a2 list **)

let rec flat_map f = function
| [] -> []
| x :: t -> app (f x) (flat_map f t)

(** val fold_left : ('a1 -> 'a2 -> 'a1) -> 'a2 list -> 'a1 -> 'a1 **)

let rec fold_left f l a0 =
  match l with
  | [] -> a0
  | b :: t -> fold_left f t (f a0 b)

(** val fold_right : ('a2 -> 'a1 -> 'a1) -> 'a1 -> 'a2 list -> 'a1 **)

let rec fold_right f a0 = function
| [] -> a0
| b :: t -> f b (fold_right f a0 t)

(** val existsb : ('a1 -> bool) -> 'a1 list -> bool **)

let rec existsb f = function
| [] -> false
| a :: l0 -> (||) (f a) (existsb f l0)

(** val forallb : ('a1 -> bool) -> 'a1 list -> bool **)

let rec forallb f = function
| [] -> true
| a :: l0 -> (&&) (f a) (forallb f l0)

(** val combine : 'a1 list -> 'a2 list -> ('a1 * 'a2) list **)

let rec combine l l' =
  match l with
  | [] -> []
  | x :: tl ->
    (match l' with
     | [] -> []
     | y :: tl' -> (x, y) :: (combine tl tl'))

(** val seq : int -> int -> int list **)

let rec seq start len =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> [])
    (fun len0 -> start :: (seq (Stdlib.Int.succ start) len0))
    len

(** val prod0 : int list -> int **)

let prod0 xs =
  fold_right ( * ) (Stdlib.Int.succ 0) xs

(** val memb : int -> int list -> bool **)

let memb x xs =
  existsb ((=) x) xs

(** val nodupb : int list -> bool **)

let rec nodupb = function
| [] -> true
| x :: xs' -> (&&) (negb (memb x xs')) (nodupb xs')

(** val list_eqb : int list -> int list -> bool **)

let rec list_eqb xs ys =
  match xs with
  | [] -> (match ys with
           | [] -> true
           | _ :: _ -> false)
  | x :: xs' ->
    (match ys with
     | [] -> false
     | y :: ys' -> (&&) ((=) x y) (list_eqb xs' ys'))

(** val upd : 'a1 list -> int -> 'a1 -> 'a1 list **)

let rec upd l i v =
  match l with
  | [] -> []
  | a :: l' ->
    ((fun fO fS n -> if n=0 then fO () else fS (n-1))
       (fun _ -> v :: l')
       (fun i' -> a :: (upd l' i' v))
       i)

(** val split_last : int list -> (int list * int) option **)

let rec split_last = function
| [] -> None
| x :: xs' ->
  (match xs' with
   | [] -> Some ([], x)
   | _ :: _ ->
     (match split_last xs' with
      | Some p -> let (ys, a) = p in Some ((x :: ys), a)
      | None -> None))

type axis = int

type mesh = (axis * int) list

(** val mesh_axes : mesh -> axis list **)

let mesh_axes m =
  map fst m

(** val axis_size : mesh -> axis -> int **)

let rec axis_size m x =
  match m with
  | [] -> 0
  | p :: m' -> let (y, s) = p in if (=) x y then s else axis_size m' x

(** val mesh_size : mesh -> int **)

let mesh_size m =
  prod0 (map snd m)

(** val mesh_wf : mesh -> bool **)

let mesh_wf m =
  (&&) (nodupb (mesh_axes m))
    (forallb (fun p -> (<=) (Stdlib.Int.succ 0) (snd p)) m)

type device = axis -> int

(** val set_coord : device -> axis -> int -> device **)

let set_coord c x v y =
  if (=) y x then v else c y

(** val radix : mesh -> device -> axis list -> int **)

let radix m c xs =
  fold_left (fun acc x -> (+) (( * ) acc (axis_size m x)) (c x)) xs 0

(** val set_radix : mesh -> axis list -> int -> device -> device **)

let rec set_radix m xs q c =
  match xs with
  | [] -> c
  | x :: xs' ->
    let w = prod0 (map (axis_size m) xs') in
    set_radix m xs' ((fun a b -> if b = 0 then a else a mod b) q w)
      (set_coord c x ((fun a b -> if b = 0 then 0 else a / b) q w))

(** val rank : mesh -> device -> int **)

let rank m c =
  radix m c (mesh_axes m)

(** val device_of_rank : mesh -> int -> device **)

let device_of_rank m r =
  set_radix m (mesh_axes m) r (fun _ -> 0)

type dimty = axis list * int

type ty = dimty list

(** val shards : mesh -> dimty -> int **)

let shards m d =
  prod0 (map (axis_size m) (fst d))

(** val extent : mesh -> dimty -> int **)

let extent m d =
  (fun a b -> if b = 0 then 0 else a / b) (snd d) (shards m d)

(** val local_shape : mesh -> ty -> int list **)

let local_shape m t =
  map (extent m) t

(** val local_size : mesh -> ty -> int **)

let local_size m t =
  prod0 (local_shape m t)

(** val global_shape : ty -> int list **)

let global_shape t =
  map snd t

(** val ty_axes : ty -> axis list **)

let ty_axes t =
  flat_map fst t

(** val dim_wf : mesh -> dimty -> bool **)

let dim_wf m d =
  (&&)
    ((&&) (forallb (fun x -> memb x (mesh_axes m)) (fst d))
      ((<=) (Stdlib.Int.succ 0) (snd d)))
    ((=) ((fun a b -> if b = 0 then a else a mod b) (snd d) (shards m d)) 0)

(** val ty_wf : mesh -> ty -> bool **)

let ty_wf m t =
  (&&) (forallb (dim_wf m) t) (nodupb (ty_axes t))

(** val offset : mesh -> dimty -> device -> int **)

let offset m d c =
  ( * ) (extent m d) (radix m c (fst d))

type split = { sp_axis : axis; sp_hi : axis; sp_lo : axis; sp_q : int;
               sp_r : int }

(** val split_mesh : split -> mesh -> mesh **)

let split_mesh sp m =
  flat_map (fun p ->
    if (=) (fst p) sp.sp_axis
    then (sp.sp_hi, sp.sp_q) :: ((sp.sp_lo, sp.sp_r) :: [])
    else p :: []) m

(** val split_axes : split -> axis list -> axis list **)

let split_axes sp xs =
  flat_map (fun y ->
    if (=) y sp.sp_axis then sp.sp_hi :: (sp.sp_lo :: []) else y :: []) xs

(** val split_ty : split -> ty -> ty **)

let split_ty sp t =
  map (fun d -> ((split_axes sp (fst d)), (snd d))) t

(** val split_ok : mesh -> split -> bool **)

let split_ok m sp =
  (&&)
    ((&&)
      ((&&)
        ((&&)
          ((&&)
            ((&&) (memb sp.sp_axis (mesh_axes m))
              ((=) (axis_size m sp.sp_axis) (( * ) sp.sp_q sp.sp_r)))
            ((<=) (Stdlib.Int.succ 0) sp.sp_q))
          ((<=) (Stdlib.Int.succ 0) sp.sp_r))
        (negb (memb sp.sp_hi (mesh_axes m))))
      (negb (memb sp.sp_lo (mesh_axes m)))) (negb ((=) sp.sp_hi sp.sp_lo))

type refinement = split list

(** val refine_ok : mesh -> refinement -> bool **)

let rec refine_ok m = function
| [] -> true
| sp :: rf' -> (&&) (split_ok m sp) (refine_ok (split_mesh sp m) rf')

(** val refine_mesh : refinement -> mesh -> mesh **)

let refine_mesh rf m =
  fold_left (fun m0 sp -> split_mesh sp m0) rf m

(** val refine_ty : refinement -> ty -> ty **)

let refine_ty rf t =
  fold_left (fun t0 sp -> split_ty sp t0) rf t

type collective =
| DynSlice of int * axis
| AllGather of int
| AllToAll of int * int
| AllPermute of ty

type plan = collective list

type ('e, 'a) res =
| OK of 'a
| Error of 'e

type step_error =
| DimOutOfRange of int
| AxisNotInMesh of axis
| AxisInUse of axis
| SliceNotDividing of int * axis
| GatherUnsharded of int
| SameDims of int
| AllToAllNotDividing of int * axis
| PermuteIllFormed
| PermuteGlobalShape
| PermuteLocalShape

(** val set_dim : ty -> int -> dimty -> ty **)

let set_dim =
  upd

(** val step_type : mesh -> ty -> collective -> (step_error, ty) res **)

let step_type m t = function
| DynSlice (d, x) ->
  (match nth_error t d with
   | Some d0 ->
     let (xs, n) = d0 in
     if negb (memb x (mesh_axes m))
     then Error (AxisNotInMesh x)
     else if memb x (ty_axes t)
          then Error (AxisInUse x)
          else if negb
                    ((=)
                      ((fun a b -> if b = 0 then a else a mod b)
                        (extent m (xs, n)) (axis_size m x)) 0)
               then Error (SliceNotDividing (d, x))
               else OK (set_dim t d ((app xs (x :: [])), n))
   | None -> Error (DimOutOfRange d))
| AllGather d ->
  (match nth_error t d with
   | Some d0 ->
     let (xs, n) = d0 in
     (match split_last xs with
      | Some p -> let (ys, _) = p in OK (set_dim t d (ys, n))
      | None -> Error (GatherUnsharded d))
   | None -> Error (DimOutOfRange d))
| AllToAll (s, u) ->
  if (=) s u
  then Error (SameDims s)
  else (match nth_error t s with
        | Some d ->
          let (xs, ns) = d in
          (match nth_error t u with
           | Some d0 ->
             let (ys, nu) = d0 in
             (match split_last xs with
              | Some p ->
                let (xs', a) = p in
                if negb
                     ((=)
                       ((fun a b -> if b = 0 then a else a mod b)
                         (extent m (ys, nu)) (axis_size m a)) 0)
                then Error (AllToAllNotDividing (u, a))
                else OK
                       (set_dim (set_dim t s (xs', ns)) u
                         ((app ys (a :: [])), nu))
              | None -> Error (GatherUnsharded s))
           | None -> Error (DimOutOfRange u))
        | None -> Error (DimOutOfRange s))
| AllPermute t' ->
  if negb (ty_wf m t')
  then Error PermuteIllFormed
  else if negb (list_eqb (global_shape t') (global_shape t))
       then Error PermuteGlobalShape
       else if negb (list_eqb (local_shape m t') (local_shape m t))
            then Error PermuteLocalShape
            else OK t'

(** val dim_of : ty -> int -> dimty **)

let dim_of t d =
  nth d t ([], 0)

(** val last_axis : axis list -> axis **)

let last_axis xs =
  last xs 0

(** val holder_from : mesh -> ty -> ty -> device -> device -> device **)

let rec holder_from m t t' c0 c =
  match t with
  | [] -> c
  | d :: r ->
    let (xs, _) = d in
    (match t' with
     | [] -> c
     | d0 :: r' ->
       let (ys, _) = d0 in
       holder_from m r r' c0 (set_radix m xs (radix m c0 ys) c))

(** val holder : mesh -> ty -> ty -> device -> device **)

let holder m t t' c =
  holder_from m t t' c c

(** val recv_count : mesh -> ty -> collective -> int -> int **)

let recv_count m t k r =
  match k with
  | DynSlice (_, _) -> 0
  | AllGather d ->
    ( * )
      ((fun a b -> Stdlib.max 0 (a - b))
        (axis_size m (last_axis (fst (dim_of t d)))) (Stdlib.Int.succ 0))
      (local_size m t)
  | AllToAll (s, _) ->
    let a = axis_size m (last_axis (fst (dim_of t s))) in
    ( * ) ((fun a b -> if b = 0 then 0 else a / b) (local_size m t) a)
      ((fun a b -> Stdlib.max 0 (a - b)) a (Stdlib.Int.succ 0))
  | AllPermute t' ->
    if (=) (rank m (holder m t t' (device_of_rank m r))) r
    then 0
    else local_size m t

type check_error =
| BadMesh
| BadSource
| BadTarget
| GlobalShapeMismatch
| StepFailed of int * step_error
| WrongFinalType of ty

type step_report = { sr_collective : collective; sr_type : ty;
                     sr_local_size : int; sr_recv : (int -> int) }

type report = { rp_steps : step_report list; rp_peak : int }

(** val dimty_eqb : dimty -> dimty -> bool **)

let dimty_eqb d e =
  (&&) (list_eqb (fst d) (fst e)) ((=) (snd d) (snd e))

(** val ty_eqb : ty -> ty -> bool **)

let rec ty_eqb t u =
  match t with
  | [] -> (match u with
           | [] -> true
           | _ :: _ -> false)
  | d :: t' ->
    (match u with
     | [] -> false
     | e :: u' -> (&&) (dimty_eqb d e) (ty_eqb t' u'))

(** val check_steps :
    mesh -> ty -> plan -> int -> (check_error, step_report list * ty) res **)

let rec check_steps m t p i =
  match p with
  | [] -> OK ([], t)
  | k :: p' ->
    (match step_type m t k with
     | OK t' ->
       (match check_steps m t' p' (Stdlib.Int.succ i) with
        | OK a ->
          let (reps, final) = a in
          OK (({ sr_collective = k; sr_type = t'; sr_local_size =
          (local_size m t'); sr_recv = (recv_count m t k) } :: reps), final)
        | Error e -> Error e)
     | Error e -> Error (StepFailed (i, e)))

(** val check : mesh -> ty -> ty -> plan -> (check_error, report) res **)

let check m src tgt p =
  if negb (mesh_wf m)
  then Error BadMesh
  else if negb (ty_wf m src)
       then Error BadSource
       else if negb (ty_wf m tgt)
            then Error BadTarget
            else if negb (list_eqb (global_shape src) (global_shape tgt))
                 then Error GlobalShapeMismatch
                 else (match check_steps m src p 0 with
                       | OK a ->
                         let (reps, final) = a in
                         if ty_eqb final tgt
                         then OK { rp_steps = reps; rp_peak =
                                (fold_left Stdlib.max
                                  (map (fun s -> s.sr_local_size) reps)
                                  (local_size m src)) }
                         else Error (WrongFinalType final)
                       | Error e -> Error e)

(** val max_over_ranks : mesh -> (int -> int) -> int **)

let max_over_ranks m f =
  fold_left (fun acc r -> Stdlib.max acc (f r)) (seq 0 (mesh_size m)) 0

(** val overlap : int -> int -> int -> int -> int **)

let overlap a n b k =
  (fun a b -> Stdlib.max 0 (a - b)) (Stdlib.min ((+) a n) ((+) b k))
    (Stdlib.max a b)

(** val lower_bound_recv : mesh -> ty -> ty -> int -> int **)

let lower_bound_recv m src tgt r =
  let c = device_of_rank m r in
  (fun a b -> Stdlib.max 0 (a - b)) (local_size m tgt)
    (prod0
      (map (fun de ->
        overlap (offset m (fst de) c) (extent m (fst de))
          (offset m (snd de) c) (extent m (snd de))) (combine src tgt)))
