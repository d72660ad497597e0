
type __ = Obj.t
let __ = let rec f _ = Obj.repr f in Obj.repr f

(** val negb : bool -> bool **)

let negb = function
| true -> false
| false -> true

(** val option_map : ('a1 -> 'a2) -> 'a1 option -> 'a2 option **)

let option_map f = function
| Some a -> Some (f a)
| None -> None

(** val fst : ('a1 * 'a2) -> 'a1 **)

let fst = function
| (x, _) -> x

(** val snd : ('a1 * 'a2) -> 'a2 **)

let snd = function
| (_, y) -> y

(** val length : 'a1 list -> int **)

let rec length = function
| [] -> 0
| _ :: l' -> Stdlib.Int.succ (length l')

(** val app : 'a1 list -> 'a1 list -> 'a1 list **)

let rec app l m =
  match l with
  | [] -> m
  | a :: l1 -> a :: (app l1 m)

type comparison =
| Eq
| Lt
| Gt

(** val compOpp : comparison -> comparison **)

let compOpp = function
| Eq -> Eq
| Lt -> Gt
| Gt -> Lt

module type EqLtLe =
 sig
  type t
 end

module type TotalLeBool' =
 sig
  type t

  val leb : t -> t -> bool
 end

module MakeOrderTac =
 functor (O:EqLtLe) ->
 functor (P:sig
 end) ->
 struct
 end

module Nat =
 struct
  (** val succ : int -> int **)

  let succ x =
    Stdlib.Int.succ x

  (** val compare : int -> int -> comparison **)

  let rec compare = fun n m -> if n=m then Eq else if n<m then Lt else Gt

  (** val pow : int -> int -> int **)

  let rec pow n m =
    (fun fO fS n -> if n=0 then fO () else fS (n-1))
      (fun _ -> Stdlib.Int.succ 0)
      (fun m0 -> ( * ) n (pow n m0))
      m

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

  (** val gcd : int -> int -> int **)

  let rec gcd a b =
    (fun fO fS n -> if n=0 then fO () else fS (n-1))
      (fun _ -> b)
      (fun a' ->
      gcd ((fun a b -> if b = 0 then a else a mod b) b (Stdlib.Int.succ a'))
        (Stdlib.Int.succ a'))
      a
 end

type positive =
| XI of positive
| XO of positive
| XH

type z =
| Z0
| Zpos of positive
| Zneg of positive

module Pos =
 struct
  (** val succ : positive -> positive **)

  let rec succ = function
  | XI p -> XO (succ p)
  | XO p -> XI p
  | XH -> XO XH

  (** val add : positive -> positive -> positive **)

  let rec add x y =
    match x with
    | XI p ->
      (match y with
       | XI q -> XO (add_carry p q)
       | XO q -> XI (add p q)
       | XH -> XO (succ p))
    | XO p ->
      (match y with
       | XI q -> XI (add p q)
       | XO q -> XO (add p q)
       | XH -> XI p)
    | XH -> (match y with
             | XI q -> XO (succ q)
             | XO q -> XI q
             | XH -> XO XH)

  (** val add_carry : positive -> positive -> positive **)

  and add_carry x y =
    match x with
    | XI p ->
      (match y with
       | XI q -> XI (add_carry p q)
       | XO q -> XO (add_carry p q)
       | XH -> XI (succ p))
    | XO p ->
      (match y with
       | XI q -> XO (add_carry p q)
       | XO q -> XI (add p q)
       | XH -> XO (succ p))
    | XH ->
      (match y with
       | XI q -> XI (succ q)
       | XO q -> XO (succ q)
       | XH -> XI XH)

  (** val pred_double : positive -> positive **)

  let rec pred_double = function
  | XI p -> XI (XO p)
  | XO p -> XI (pred_double p)
  | XH -> XH

  (** val mul : positive -> positive -> positive **)

  let rec mul x y =
    match x with
    | XI p -> add y (XO (mul p y))
    | XO p -> XO (mul p y)
    | XH -> y

  (** val compare_cont : comparison -> positive -> positive -> comparison **)

  let rec compare_cont r x y =
    match x with
    | XI p ->
      (match y with
       | XI q -> compare_cont r p q
       | XO q -> compare_cont Gt p q
       | XH -> Gt)
    | XO p ->
      (match y with
       | XI q -> compare_cont Lt p q
       | XO q -> compare_cont r p q
       | XH -> Gt)
    | XH -> (match y with
             | XH -> r
             | _ -> Lt)

  (** val compare : positive -> positive -> comparison **)

  let compare =
    compare_cont Eq

  (** val eqb : positive -> positive -> bool **)

  let rec eqb p q =
    match p with
    | XI p0 -> (match q with
                | XI q0 -> eqb p0 q0
                | _ -> false)
    | XO p0 -> (match q with
                | XO q0 -> eqb p0 q0
                | _ -> false)
    | XH -> (match q with
             | XH -> true
             | _ -> false)

  (** val of_succ_nat : int -> positive **)

  let rec of_succ_nat n =
    (fun fO fS n -> if n=0 then fO () else fS (n-1))
      (fun _ -> XH)
      (fun x -> succ (of_succ_nat x))
      n

  (** val eq_dec : positive -> positive -> bool **)

  let rec eq_dec p x0 =
    match p with
    | XI p0 -> (match x0 with
                | XI p1 -> eq_dec p0 p1
                | _ -> false)
    | XO p0 -> (match x0 with
                | XO p1 -> eq_dec p0 p1
                | _ -> false)
    | XH -> (match x0 with
             | XH -> true
             | _ -> false)
 end

(** val hd : 'a1 -> 'a1 list -> 'a1 **)

let hd default = function
| [] -> default
| x :: _ -> x

(** val nth : int -> 'a1 list -> 'a1 -> 'a1 **)

let rec nth n l default =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> match l with
              | [] -> default
              | x :: _ -> x)
    (fun m -> match l with
              | [] -> default
              | _ :: t0 -> nth m t0 default)
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

(** val removelast : 'a1 list -> 'a1 list **)

let rec removelast = function
| [] -> []
| a :: l0 -> (match l0 with
              | [] -> []
              | _ :: _ -> a :: (removelast l0))

(** val rev : 'a1 list -> 'a1 list **)

let rec rev = function
| [] -> []
| x :: l' -> app (rev l') (x :: [])

(** val rev_append : 'a1 list -> 'a1 list -> 'a1 list **)

let rec rev_append l l' =
  match l with
  | [] -> l'
  | a :: l0 -> rev_append l0 (a :: l')

(** val rev' : 'a1 list -> 'a1 list **)

let rev' l =
  rev_append l []

(** val map : ('a1 -> 'a2) -> 'a1 list -> 'a2 list **)

let rec map f = function
| [] -> []
| a :: t0 -> (f a) :: (map f t0)

(** val flat_map : ('a1 -> 'a2 list) -> 'a1 list -> 'a2 list **)

let rec flat_map f = function
| [] -> []
| x :: t0 -> app (f x) (flat_map f t0)

(** val fold_left : ('a1 -> 'a2 -> 'a1) -> 'a2 list -> 'a1 -> 'a1 **)

let rec fold_left f l a0 =
  match l with
  | [] -> a0
  | b :: t0 -> fold_left f t0 (f a0 b)

(** val fold_right : ('a2 -> 'a1 -> 'a1) -> 'a1 -> 'a2 list -> 'a1 **)

let rec fold_right f a0 = function
| [] -> a0
| b :: t0 -> f b (fold_right f a0 t0)

(** val existsb : ('a1 -> bool) -> 'a1 list -> bool **)

let rec existsb f = function
| [] -> false
| a :: l0 -> (||) (f a) (existsb f l0)

(** val forallb : ('a1 -> bool) -> 'a1 list -> bool **)

let rec forallb f = function
| [] -> true
| a :: l0 -> (&&) (f a) (forallb f l0)

(** val filter : ('a1 -> bool) -> 'a1 list -> 'a1 list **)

let rec filter f = function
| [] -> []
| x :: l0 -> if f x then x :: (filter f l0) else filter f l0

(** val find : ('a1 -> bool) -> 'a1 list -> 'a1 option **)

let rec find f = function
| [] -> None
| x :: tl -> if f x then Some x else find f tl

(** val combine : 'a1 list -> 'a2 list -> ('a1 * 'a2) list **)

let rec combine l l' =
  match l with
  | [] -> []
  | x :: tl ->
    (match l' with
     | [] -> []
     | y :: tl' -> (x, y) :: (combine tl tl'))

(** val firstn : int -> 'a1 list -> 'a1 list **)

let rec firstn n l =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> [])
    (fun n0 -> match l with
               | [] -> []
               | a :: l0 -> a :: (firstn n0 l0))
    n

(** val seq : int -> int -> int list **)

let rec seq start len =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> [])
    (fun len0 -> start :: (seq (Stdlib.Int.succ start) len0))
    len

(** val repeat : 'a1 -> int -> 'a1 list **)

let rec repeat x n =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> [])
    (fun k -> x :: (repeat x k))
    n

(** val list_sum : int list -> int **)

let list_sum l =
  fold_right (+) 0 l

(** val list_max : int list -> int **)

let list_max l =
  fold_right (fun (a : int) b -> if a >= b then a else b) 0 l

module Z =
 struct
  (** val double : z -> z **)

  let double = function
  | Z0 -> Z0
  | Zpos p -> Zpos (XO p)
  | Zneg p -> Zneg (XO p)

  (** val succ_double : z -> z **)

  let succ_double = function
  | Z0 -> Zpos XH
  | Zpos p -> Zpos (XI p)
  | Zneg p -> Zneg (Pos.pred_double p)

  (** val pred_double : z -> z **)

  let pred_double = function
  | Z0 -> Zneg XH
  | Zpos p -> Zpos (Pos.pred_double p)
  | Zneg p -> Zneg (XI p)

  (** val pos_sub : positive -> positive -> z **)

  let rec pos_sub x y =
    match x with
    | XI p ->
      (match y with
       | XI q -> double (pos_sub p q)
       | XO q -> succ_double (pos_sub p q)
       | XH -> Zpos (XO p))
    | XO p ->
      (match y with
       | XI q -> pred_double (pos_sub p q)
       | XO q -> double (pos_sub p q)
       | XH -> Zpos (Pos.pred_double p))
    | XH ->
      (match y with
       | XI q -> Zneg (XO q)
       | XO q -> Zneg (Pos.pred_double q)
       | XH -> Z0)

  (** val add : z -> z -> z **)

  let add x y =
    match x with
    | Z0 -> y
    | Zpos x' ->
      (match y with
       | Z0 -> x
       | Zpos y' -> Zpos (Pos.add x' y')
       | Zneg y' -> pos_sub x' y')
    | Zneg x' ->
      (match y with
       | Z0 -> x
       | Zpos y' -> pos_sub y' x'
       | Zneg y' -> Zneg (Pos.add x' y'))

  (** val opp : z -> z **)

  let opp = function
  | Z0 -> Z0
  | Zpos x0 -> Zneg x0
  | Zneg x0 -> Zpos x0

  (** val sub : z -> z -> z **)

  let sub m n =
    add m (opp n)

  (** val mul : z -> z -> z **)

  let mul x y =
    match x with
    | Z0 -> Z0
    | Zpos x' ->
      (match y with
       | Z0 -> Z0
       | Zpos y' -> Zpos (Pos.mul x' y')
       | Zneg y' -> Zneg (Pos.mul x' y'))
    | Zneg x' ->
      (match y with
       | Z0 -> Z0
       | Zpos y' -> Zneg (Pos.mul x' y')
       | Zneg y' -> Zpos (Pos.mul x' y'))

  (** val compare : z -> z -> comparison **)

  let compare x y =
    match x with
    | Z0 -> (match y with
             | Z0 -> Eq
             | Zpos _ -> Lt
             | Zneg _ -> Gt)
    | Zpos x' -> (match y with
                  | Zpos y' -> Pos.compare x' y'
                  | _ -> Gt)
    | Zneg x' ->
      (match y with
       | Zneg y' -> compOpp (Pos.compare x' y')
       | _ -> Lt)

  (** val leb : z -> z -> bool **)

  let leb x y =
    match compare x y with
    | Gt -> false
    | _ -> true

  (** val ltb : z -> z -> bool **)

  let ltb x y =
    match compare x y with
    | Lt -> true
    | _ -> false

  (** val eqb : z -> z -> bool **)

  let eqb x y =
    match x with
    | Z0 -> (match y with
             | Z0 -> true
             | _ -> false)
    | Zpos p -> (match y with
                 | Zpos q -> Pos.eqb p q
                 | _ -> false)
    | Zneg p -> (match y with
                 | Zneg q -> Pos.eqb p q
                 | _ -> false)

  (** val max : z -> z -> z **)

  let max n m =
    match compare n m with
    | Lt -> m
    | _ -> n

  (** val eq_dec : z -> z -> bool **)

  let eq_dec x y =
    match x with
    | Z0 -> (match y with
             | Z0 -> true
             | _ -> false)
    | Zpos p -> (match y with
                 | Zpos p0 -> Pos.eq_dec p p0
                 | _ -> false)
    | Zneg p -> (match y with
                 | Zneg p0 -> Pos.eq_dec p p0
                 | _ -> false)
 end

(** val prod0 : int list -> int **)

let prod0 xs =
  fold_right ( * ) (Stdlib.Int.succ 0) xs

(** val memb : int -> int list -> bool **)

let memb x xs =
  existsb ((fun (a : int) b -> a = b) x) xs

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
     | y :: ys' -> (&&) ((fun (a : int) b -> a = b) x y) (list_eqb xs' ys'))

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
  | p :: m' ->
    let (y, s) = p in
    if (fun (a : int) b -> a = b) x y then s else axis_size m' x

(** val mesh_size : mesh -> int **)

let mesh_size m =
  prod0 (map snd m)

(** val mesh_wf : mesh -> bool **)

let mesh_wf m =
  (&&) (nodupb (mesh_axes m))
    (forallb (fun p ->
      (fun (a : int) b -> a <= b) (Stdlib.Int.succ 0) (snd p)) m)

type device = axis -> int

(** val set_coord : device -> axis -> int -> device **)

let set_coord c x v y =
  if (fun (a : int) b -> a = b) y x then v else c y

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

let local_shape m t0 =
  map (extent m) t0

(** val local_size : mesh -> ty -> int **)

let local_size m t0 =
  prod0 (local_shape m t0)

(** val global_shape : ty -> int list **)

let global_shape t0 =
  map snd t0

(** val ty_axes : ty -> axis list **)

let ty_axes t0 =
  flat_map fst t0

(** val dim_wf : mesh -> dimty -> bool **)

let dim_wf m d =
  (&&)
    ((&&) (forallb (fun x -> memb x (mesh_axes m)) (fst d))
      ((fun (a : int) b -> a <= b) (Stdlib.Int.succ 0) (snd d)))
    ((fun (a : int) b -> a = b)
      ((fun a b -> if b = 0 then a else a mod b) (snd d) (shards m d)) 0)

(** val ty_wf : mesh -> ty -> bool **)

let ty_wf m t0 =
  (&&) (forallb (dim_wf m) t0) (nodupb (ty_axes t0))

(** val offset : mesh -> dimty -> device -> int **)

let offset m d c =
  ( * ) (extent m d) (radix m c (fst d))

(** val box_indices : int list -> int list list **)

let rec box_indices = function
| [] -> [] :: []
| n :: shape' ->
  flat_map (fun i -> map (fun x -> i :: x) (box_indices shape')) (seq 0 n)

type 'a state = int -> int list -> 'a

type split = { sp_axis : axis; sp_hi : axis; sp_lo : axis; sp_q : int;
               sp_r : int }

(** val split_mesh : split -> mesh -> mesh **)

let split_mesh sp m =
  flat_map (fun p ->
    if (fun (a : int) b -> a = b) (fst p) sp.sp_axis
    then (sp.sp_hi, sp.sp_q) :: ((sp.sp_lo, sp.sp_r) :: [])
    else p :: []) m

(** val split_axes : split -> axis list -> axis list **)

let split_axes sp xs =
  flat_map (fun y ->
    if (fun (a : int) b -> a = b) y sp.sp_axis
    then sp.sp_hi :: (sp.sp_lo :: [])
    else y :: []) xs

(** val split_ty : split -> ty -> ty **)

let split_ty sp t0 =
  map (fun d -> ((split_axes sp (fst d)), (snd d))) t0

(** val split_ok : mesh -> split -> bool **)

let split_ok m sp =
  (&&)
    ((&&)
      ((&&)
        ((&&)
          ((&&)
            ((&&) (memb sp.sp_axis (mesh_axes m))
              ((fun (a : int) b -> a = b) (axis_size m sp.sp_axis)
                (( * ) sp.sp_q sp.sp_r)))
            ((fun (a : int) b -> a <= b) (Stdlib.Int.succ 0) sp.sp_q))
          ((fun (a : int) b -> a <= b) (Stdlib.Int.succ 0) sp.sp_r))
        (negb (memb sp.sp_hi (mesh_axes m))))
      (negb (memb sp.sp_lo (mesh_axes m))))
    (negb ((fun (a : int) b -> a = b) sp.sp_hi sp.sp_lo))

type refinement = split list

(** val refine_ok : mesh -> refinement -> bool **)

let rec refine_ok m = function
| [] -> true
| sp :: rf' -> (&&) (split_ok m sp) (refine_ok (split_mesh sp m) rf')

(** val refine_mesh : refinement -> mesh -> mesh **)

let refine_mesh rf m =
  fold_left (fun m0 sp -> split_mesh sp m0) rf m

(** val refine_ty : refinement -> ty -> ty **)

let refine_ty rf t0 =
  fold_left (fun t1 sp -> split_ty sp t1) rf t0

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

let step_type m t0 = function
| DynSlice (d, x) ->
  (match nth_error t0 d with
   | Some d0 ->
     let (xs, n) = d0 in
     if negb (memb x (mesh_axes m))
     then Error (AxisNotInMesh x)
     else if memb x (ty_axes t0)
          then Error (AxisInUse x)
          else if negb
                    ((fun (a : int) b -> a = b)
                      ((fun a b -> if b = 0 then a else a mod b)
                        (extent m (xs, n)) (axis_size m x)) 0)
               then Error (SliceNotDividing (d, x))
               else OK (set_dim t0 d ((app xs (x :: [])), n))
   | None -> Error (DimOutOfRange d))
| AllGather d ->
  (match nth_error t0 d with
   | Some d0 ->
     let (xs, n) = d0 in
     (match split_last xs with
      | Some p -> let (ys, _) = p in OK (set_dim t0 d (ys, n))
      | None -> Error (GatherUnsharded d))
   | None -> Error (DimOutOfRange d))
| AllToAll (s, u) ->
  if (fun (a : int) b -> a = b) s u
  then Error (SameDims s)
  else (match nth_error t0 s with
        | Some d ->
          let (xs, ns) = d in
          (match nth_error t0 u with
           | Some d0 ->
             let (ys, nu) = d0 in
             (match split_last xs with
              | Some p ->
                let (xs', a) = p in
                if negb
                     ((fun (a : int) b -> a = b)
                       ((fun a b -> if b = 0 then a else a mod b)
                         (extent m (ys, nu)) (axis_size m a)) 0)
                then Error (AllToAllNotDividing (u, a))
                else OK
                       (set_dim (set_dim t0 s (xs', ns)) u
                         ((app ys (a :: [])), nu))
              | None -> Error (GatherUnsharded s))
           | None -> Error (DimOutOfRange u))
        | None -> Error (DimOutOfRange s))
| AllPermute t' ->
  if negb (ty_wf m t')
  then Error PermuteIllFormed
  else if negb (list_eqb (global_shape t') (global_shape t0))
       then Error PermuteGlobalShape
       else if negb (list_eqb (local_shape m t') (local_shape m t0))
            then Error PermuteLocalShape
            else OK t'

(** val dim_of : ty -> int -> dimty **)

let dim_of t0 d =
  nth d t0 ([], 0)

(** val last_axis : axis list -> axis **)

let last_axis xs =
  last xs 0

(** val holder_from : mesh -> ty -> ty -> device -> device -> device **)

let rec holder_from m t0 t' c0 c =
  match t0 with
  | [] -> c
  | d :: r ->
    let (xs, _) = d in
    (match t' with
     | [] -> c
     | d0 :: r' ->
       let (ys, _) = d0 in
       holder_from m r r' c0 (set_radix m xs (radix m c0 ys) c))

(** val holder : mesh -> ty -> ty -> device -> device **)

let holder m t0 t' c =
  holder_from m t0 t' c c

(** val wire :
    mesh -> ty -> collective -> device -> int list -> device * int list **)

let wire m t0 k c l =
  match k with
  | DynSlice (d, x) ->
    let n' =
      (fun a b -> if b = 0 then 0 else a / b) (extent m (dim_of t0 d))
        (axis_size m x)
    in
    (c, (upd l d ((+) (nth d l 0) (( * ) (c x) n'))))
  | AllGather d ->
    let a = last_axis (fst (dim_of t0 d)) in
    let n = extent m (dim_of t0 d) in
    ((set_coord c a ((fun a b -> if b = 0 then 0 else a / b) (nth d l 0) n)),
    (upd l d ((fun a b -> if b = 0 then a else a mod b) (nth d l 0) n)))
  | AllToAll (s, u) ->
    let a = last_axis (fst (dim_of t0 s)) in
    let ns = extent m (dim_of t0 s) in
    let nu' =
      (fun a b -> if b = 0 then 0 else a / b) (extent m (dim_of t0 u))
        (axis_size m a)
    in
    ((set_coord c a ((fun a b -> if b = 0 then 0 else a / b) (nth s l 0) ns)),
    (upd (upd l s ((fun a b -> if b = 0 then a else a mod b) (nth s l 0) ns))
      u ((+) (( * ) (c a) nu') (nth u l 0))))
  | AllPermute t' -> ((holder m t0 t' c), l)

(** val exec_step : mesh -> ty -> collective -> 'a1 state -> 'a1 state **)

let exec_step m t0 k st r l =
  let (c', l') = wire m t0 k (device_of_rank m r) l in st (rank m c') l'

(** val exec : mesh -> ty -> plan -> 'a1 state -> 'a1 state **)

let rec exec m t0 p st =
  match p with
  | [] -> st
  | k :: p' ->
    (match step_type m t0 k with
     | OK t' -> exec m t' p' (exec_step m t0 k st)
     | Error _ -> st)

(** val trace : mesh -> ty -> plan -> ty list **)

let rec trace m t0 p =
  t0 :: (match p with
         | [] -> []
         | k :: p' ->
           (match step_type m t0 k with
            | OK t' -> trace m t' p'
            | Error _ -> []))

(** val received : mesh -> ty -> collective -> int -> int **)

let received m t0 k r =
  match step_type m t0 k with
  | OK t' ->
    length
      (filter (fun l ->
        negb
          ((fun (a : int) b -> a = b)
            (rank m (fst (wire m t0 k (device_of_rank m r) l))) r))
        (box_indices (local_shape m t')))
  | Error _ -> 0

(** val received_trace : mesh -> ty -> plan -> int -> int list **)

let rec received_trace m t0 p r =
  match p with
  | [] -> []
  | k :: p' ->
    (match step_type m t0 k with
     | OK t' -> (received m t0 k r) :: (received_trace m t' p' r)
     | Error _ -> [])

(** val recv_count : mesh -> ty -> collective -> int -> int **)

let recv_count m t0 k r =
  match k with
  | DynSlice (_, _) -> 0
  | AllGather d ->
    ( * )
      ((fun (a : int) b -> if a >= b then a - b else 0)
        (axis_size m (last_axis (fst (dim_of t0 d)))) (Stdlib.Int.succ 0))
      (local_size m t0)
  | AllToAll (s, _) ->
    let a = axis_size m (last_axis (fst (dim_of t0 s))) in
    ( * ) ((fun a b -> if b = 0 then 0 else a / b) (local_size m t0) a)
      ((fun (a : int) b -> if a >= b then a - b else 0) a (Stdlib.Int.succ 0))
  | AllPermute t' ->
    if (fun (a : int) b -> a = b)
         (rank m (holder m t0 t' (device_of_rank m r))) r
    then 0
    else local_size m t0

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
  (&&) (list_eqb (fst d) (fst e)) ((fun (a : int) b -> a = b) (snd d) (snd e))

(** val ty_eqb : ty -> ty -> bool **)

let rec ty_eqb t0 u =
  match t0 with
  | [] -> (match u with
           | [] -> true
           | _ :: _ -> false)
  | d :: t' ->
    (match u with
     | [] -> false
     | e :: u' -> (&&) (dimty_eqb d e) (ty_eqb t' u'))

(** val rank_weights : mesh -> (axis * (int * int)) list **)

let rec rank_weights = function
| [] -> []
| p :: m' -> let (x, s) = p in (x, ((mesh_size m'), s)) :: (rank_weights m')

(** val weight_of : (axis * (int * int)) list -> axis -> int * int **)

let rec weight_of ws x =
  match ws with
  | [] -> ((Stdlib.Int.succ 0), (Stdlib.Int.succ 0))
  | p0 :: ws' ->
    let (y, p) = p0 in
    if (fun (a : int) b -> a = b) x y then p else weight_of ws' x

(** val radix_of_rank : (int * int) list -> int -> int **)

let radix_of_rank digits r =
  fold_left (fun acc pat ->
    let (w, s) = pat in
    (+) (( * ) acc s)
      ((fun a b -> if b = 0 then a else a mod b)
        ((fun a b -> if b = 0 then 0 else a / b) r w) s)) digits 0

(** val moved_dims :
    (axis * (int * int)) list -> ty -> ty -> ((int * int) list * (int * int)
    list) list **)

let rec moved_dims ws t0 t' =
  match t0 with
  | [] -> []
  | d :: u ->
    let (xs, _) = d in
    (match t' with
     | [] -> []
     | d0 :: u' ->
       let (ys, _) = d0 in
       if list_eqb xs ys
       then moved_dims ws u u'
       else ((map (weight_of ws) xs),
              (map (weight_of ws) ys)) :: (moved_dims ws u u'))

(** val permute_recv : mesh -> ty -> ty -> int -> int **)

let permute_recv m t0 t' =
  let moved = moved_dims (rank_weights m) t0 t' in
  let n = local_size m t0 in
  (fun r ->
  if forallb (fun pat ->
       let (a, b) = pat in
       (fun (a : int) b -> a = b) (radix_of_rank a r) (radix_of_rank b r))
       moved
  then 0
  else n)

(** val step_recv : mesh -> ty -> collective -> int -> int **)

let step_recv m t0 k = match k with
| AllPermute t' -> permute_recv m t0 t'
| _ -> let n = recv_count m t0 k 0 in (fun _ -> n)

(** val check_steps :
    mesh -> ty -> plan -> int -> (check_error, step_report list * ty) res **)

let rec check_steps m t0 p i =
  match p with
  | [] -> OK ([], t0)
  | k :: p' ->
    (match step_type m t0 k with
     | OK t' ->
       (match check_steps m t' p' (Stdlib.Int.succ i) with
        | OK a ->
          let (reps, final) = a in
          OK (({ sr_collective = k; sr_type = t'; sr_local_size =
          (local_size m t'); sr_recv = (step_recv m t0 k) } :: reps), final)
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
                                (fold_left
                                  (fun (a : int) b -> if a >= b then a else b)
                                  (map (fun s -> s.sr_local_size) reps)
                                  (local_size m src)) }
                         else Error (WrongFinalType final)
                       | Error e -> Error e)

(** val max_over_ranks : mesh -> (int -> int) -> int **)

let max_over_ranks m f =
  fold_left (fun acc r ->
    (fun (a : int) b -> if a >= b then a else b) acc (f r))
    (seq 0 (mesh_size m)) 0

(** val overlap : int -> int -> int -> int -> int **)

let overlap a n b k =
  (fun (a : int) b -> if a >= b then a - b else 0)
    ((fun (a : int) b -> if a <= b then a else b) ((+) a n) ((+) b k))
    ((fun (a : int) b -> if a >= b then a else b) a b)

(** val lower_bound_recv : mesh -> ty -> ty -> int -> int **)

let lower_bound_recv m src tgt =
  let ws = rank_weights m in
  let dims =
    map (fun pat ->
      let (ds, dt) = pat in
      ((((extent m ds), (map (weight_of ws) (fst ds))), (extent m dt)),
      (map (weight_of ws) (fst dt)))) (combine src tgt)
  in
  let n = local_size m tgt in
  (fun r ->
  (fun (a : int) b -> if a >= b then a - b else 0) n
    (prod0
      (map (fun pat ->
        let (y, b) = pat in
        let (y0, et) = y in
        let (es, a) = y0 in
        overlap (( * ) es (radix_of_rank a r)) es
          (( * ) et (radix_of_rank b r)) et) dims)))

(** val is_slice : collective -> bool **)

let is_slice = function
| DynSlice (_, _) -> true
| _ -> false

(** val is_flat : collective -> bool **)

let is_flat = function
| DynSlice (_, _) -> false
| AllGather _ -> false
| _ -> true

(** val is_gather : collective -> bool **)

let is_gather = function
| AllGather _ -> true
| _ -> false

(** val take_while : ('a1 -> bool) -> 'a1 list -> 'a1 list * 'a1 list **)

let rec take_while f l = match l with
| [] -> ([], [])
| x :: l' ->
  if f x then let (a, b) = take_while f l' in ((x :: a), b) else ([], l)

(** val nf_split : plan -> ((plan * plan) * plan) * plan **)

let nf_split p =
  let (sl, r1) = take_while is_slice p in
  let (fl, r2) = take_while is_flat r1 in
  let (ga, r3) = take_while is_gather r2 in (((sl, fl), ga), r3)

(** val normal_form : plan -> bool **)

let normal_form p =
  let (_, p1) = nf_split p in (match p1 with
                               | [] -> true
                               | _ :: _ -> false)

(** val least_factor_from : int -> int -> int -> int **)

let rec least_factor_from fuel d n =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> n)
    (fun f ->
    if (fun (a : int) b -> a < b) n (( * ) d d)
    then n
    else if (fun (a : int) b -> a = b)
              ((fun a b -> if b = 0 then a else a mod b) n d) 0
         then d
         else least_factor_from f (Stdlib.Int.succ d) n)
    fuel

(** val least_factor : int -> int **)

let least_factor n =
  least_factor_from n (Stdlib.Int.succ (Stdlib.Int.succ 0)) n

(** val prime_factors_fuel : int -> int -> int list **)

let rec prime_factors_fuel fuel n =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> [])
    (fun f ->
    if (fun (a : int) b -> a <= b) n (Stdlib.Int.succ 0)
    then []
    else let p = least_factor n in
         p :: (prime_factors_fuel f
                ((fun a b -> if b = 0 then 0 else a / b) n p)))
    fuel

(** val prime_factors : int -> int list **)

let prime_factors n =
  prime_factors_fuel n n

(** val chain_splits : axis -> int list -> int -> refinement **)

let rec chain_splits x fs fresh =
  match fs with
  | [] -> []
  | f :: fs' ->
    (match fs' with
     | [] -> []
     | _ :: _ ->
       { sp_axis = x; sp_hi = fresh; sp_lo = (Stdlib.Int.succ fresh); sp_q =
         f; sp_r =
         (prod0 fs') } :: (chain_splits (Stdlib.Int.succ fresh) fs'
                            (Stdlib.Int.succ (Stdlib.Int.succ fresh))))

(** val refine_all : (int list -> int list) -> mesh -> int -> refinement **)

let rec refine_all group m fresh =
  match m with
  | [] -> []
  | p :: m' ->
    let (x, s) = p in
    let fs = group (prime_factors s) in
    app (chain_splits x fs fresh)
      (refine_all group m'
        ((+) fresh (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0)) (length fs))))

(** val fresh_axis : mesh -> axis **)

let fresh_axis m =
  Stdlib.Int.succ
    (fold_left (fun (a : int) b -> if a >= b then a else b) (mesh_axes m) 0)

(** val lo_least : int list -> int list **)

let lo_least fs = match fs with
| [] -> fs
| p :: fs' -> (match fs' with
               | [] -> fs
               | _ :: _ -> (prod0 fs') :: (p :: []))

(** val hi_least : int list -> int list **)

let hi_least fs = match fs with
| [] -> fs
| p :: fs' -> (match fs' with
               | [] -> fs
               | _ :: _ -> p :: ((prod0 fs') :: []))

(** val split_eqb : split -> split -> bool **)

let split_eqb a b =
  list_eqb
    (a.sp_axis :: (a.sp_hi :: (a.sp_lo :: (a.sp_q :: (a.sp_r :: [])))))
    (b.sp_axis :: (b.sp_hi :: (b.sp_lo :: (b.sp_q :: (b.sp_r :: [])))))

(** val refinement_eqb : refinement -> refinement -> bool **)

let rec refinement_eqb a b =
  match a with
  | [] -> (match b with
           | [] -> true
           | _ :: _ -> false)
  | x :: a' ->
    (match b with
     | [] -> false
     | y :: b' -> (&&) (split_eqb x y) (refinement_eqb a' b'))

(** val dedup_refinements : refinement list -> refinement list **)

let rec dedup_refinements = function
| [] -> []
| r :: rs' ->
  r :: (filter (fun r' -> negb (refinement_eqb r r')) (dedup_refinements rs'))

(** val candidate_refinements : mesh -> refinement list **)

let candidate_refinements m =
  let f = fresh_axis m in
  dedup_refinements
    ([] :: ((refine_all lo_least m f) :: ((refine_all hi_least m f) :: (
    (refine_all rev m f) :: ((refine_all (fun fs -> fs) m f) :: [])))))

(** val ext : mesh -> ty -> int -> int **)

let ext m t0 d =
  extent m (dim_of t0 d)

(** val surplus : int -> int -> int **)

let surplus n n' =
  (fun a b -> if b = 0 then 0 else a / b) n (Nat.gcd n n')

(** val slice_type : ty -> int -> axis -> ty **)

let slice_type t0 d x =
  set_dim t0 d ((app (fst (dim_of t0 d)) (x :: [])), (snd (dim_of t0 d)))

(** val greedy_slices :
    mesh -> ty -> int -> ty -> (int * axis) list -> (int * axis) list **)

let rec greedy_slices m other goal t0 = function
| [] -> []
| p :: ps ->
  let (d, x) = p in
  let sz = axis_size m x in
  if (&&)
       ((&&)
         ((&&)
           ((&&)
             ((&&)
               ((&&) ((fun (a : int) b -> a < b) (Stdlib.Int.succ 0) sz)
                 ((fun (a : int) b -> a < b) d (length t0)))
               (memb x (mesh_axes m))) (negb (memb x (ty_axes t0))))
           ((fun (a : int) b -> a = b)
             ((fun a b -> if b = 0 then a else a mod b) (ext m t0 d) sz) 0))
         ((fun (a : int) b -> a = b)
           ((fun a b -> if b = 0 then a else a mod b)
             (surplus (ext m t0 d) (ext m other d)) sz) 0))
       ((fun (a : int) b -> a = b)
         ((fun a b -> if b = 0 then a else a mod b)
           ((fun a b -> if b = 0 then 0 else a / b) (local_size m t0) goal)
           sz) 0)
  then (d, x) :: (greedy_slices m other goal (slice_type t0 d x) ps)
  else greedy_slices m other goal t0 ps

(** val slice_prefs : mesh -> ty -> ty -> (int * axis) list **)

let slice_prefs m t0 other =
  app
    (flat_map (fun d -> map (fun x -> (d, x)) (fst (dim_of other d)))
      (seq 0 (length t0)))
    (flat_map (fun x -> map (fun d -> (d, x)) (seq 0 (length t0)))
      (mesh_axes m))

(** val slices_of : (int * axis) list -> plan **)

let slices_of ps =
  map (fun pat -> let (d, x) = pat in DynSlice (d, x)) ps

(** val apply_slices : ty -> (int * axis) list -> ty **)

let apply_slices t0 ps =
  fold_left (fun t1 pat -> let (d, x) = pat in slice_type t1 d x) ps t0

(** val gathers_of : (int * axis) list -> plan **)

let gathers_of ps =
  rev (map (fun pat -> let (d, _) = pat in AllGather d) ps)

(** val move_last : ty -> int -> axis -> ty **)

let move_last t0 s a =
  let (xs, n) = dim_of t0 s in
  set_dim t0 s
    ((app (filter (fun y -> negb ((fun (a : int) b -> a = b) y a)) xs)
       (a :: [])), n)

(** val move_ok : mesh -> ty -> ty -> int -> int -> axis -> bool **)

let move_ok m t0 goal s u a =
  let sz = axis_size m a in
  (&&)
    ((&&)
      ((&&) (negb ((fun (a : int) b -> a = b) s u))
        ((fun (a : int) b -> a < b) (Stdlib.Int.succ 0) sz))
      ((fun (a : int) b -> a = b)
        ((fun a b -> if b = 0 then a else a mod b)
          (surplus (ext m goal s) (ext m t0 s)) sz) 0))
    ((fun (a : int) b -> a = b)
      ((fun a b -> if b = 0 then a else a mod b)
        (surplus (ext m t0 u) (ext m goal u)) sz) 0)

(** val insert_big :
    mesh -> (((int * int) * axis) * bool) -> (((int * int) * axis) * bool)
    list -> (((int * int) * axis) * bool) list **)

let rec insert_big m v l = match l with
| [] -> v :: []
| w :: l' ->
  let (p, _) = v in
  let (_, a) = p in
  let (p0, _) = w in
  let (_, b) = p0 in
  if (fun (a : int) b -> a < b) (axis_size m a) (axis_size m b)
  then w :: (insert_big m v l')
  else v :: l

(** val big_first :
    mesh -> (((int * int) * axis) * bool) list ->
    (((int * int) * axis) * bool) list **)

let big_first m l =
  fold_right (insert_big m) [] l

(** val find_move :
    bool -> mesh -> ty -> ty -> (((int * int) * axis) * bool) option **)

let find_move big m t0 goal =
  let dims = seq 0 (length t0) in
  let tries = flat_map (fun s -> map (fun u -> (s, u)) dims) dims in
  let lasts =
    flat_map (fun pat ->
      let (s, u) = pat in
      (match fst (dim_of t0 s) with
       | [] -> []
       | a :: l -> (((s, u), (last_axis (a :: l))), false) :: [])) tries
  in
  let others =
    flat_map (fun pat ->
      let (s, u) = pat in
      map (fun a -> (((s, u), a), true)) (fst (dim_of t0 s))) tries
  in
  find (fun pat ->
    let (y, _) = pat in
    let (y1, a) = y in let (s, u) = y1 in move_ok m t0 goal s u a)
    (if big then big_first m (app lasts others) else app lasts others)

(** val flat_steps : bool -> int -> mesh -> ty -> ty -> plan **)

let rec flat_steps big fuel m t0 goal =
  if list_eqb (local_shape m t0) (local_shape m goal)
  then if ty_eqb t0 goal then [] else (AllPermute goal) :: []
  else ((fun fO fS n -> if n=0 then fO () else fS (n-1))
          (fun _ -> [])
          (fun f ->
          match find_move big m t0 goal with
          | Some p ->
            let (p0, perm) = p in
            let (p1, a) = p0 in
            let (s, u) = p1 in
            let t1 = if perm then move_last t0 s a else t0 in
            (match step_type m t1 (AllToAll (s, u)) with
             | OK t2 ->
               app (if perm then (AllPermute t1) :: [] else []) ((AllToAll
                 (s, u)) :: (flat_steps big f m t2 goal))
             | Error _ -> [])
          | None -> [])
          fuel)

(** val build : bool -> mesh -> ty -> ty -> int -> plan **)

let build big m src tgt l =
  let s1 = greedy_slices m tgt l src (slice_prefs m src tgt) in
  let s2 = greedy_slices m src l tgt (slice_prefs m tgt src) in
  let mid1 = apply_slices src s1 in
  app (slices_of s1)
    (app (flat_steps big (local_size m mid1) m mid1 (apply_slices tgt s2))
      (gathers_of s2))

(** val trace_peak_ok : mesh -> ty -> plan -> int -> bool **)

let trace_peak_ok m t0 p bound =
  forallb (fun u -> (fun (a : int) b -> a <= b) (local_size m u) bound)
    (trace m t0 p)

(** val is_permute : collective -> bool **)

let is_permute = function
| AllPermute _ -> true
| _ -> false

(** val fixed_traffic : report -> int **)

let fixed_traffic rep =
  fold_left (+)
    (map (fun s -> s.sr_recv 0)
      (filter (fun s -> negb (is_permute s.sr_collective)) rep.rp_steps)) 0

(** val first_received : step_report -> int -> int -> int **)

let rec first_received s r n =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> 0)
    (fun n' ->
    if (fun (a : int) b -> a < b) 0 (s.sr_recv r)
    then s.sr_recv r
    else first_received s (Stdlib.Int.succ r) n')
    n

(** val max_upto : int -> (int -> int) -> int -> int -> int -> int **)

let rec max_upto cap f r n acc =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> acc)
    (fun n' ->
    if (fun (a : int) b -> a <= b) cap acc
    then acc
    else max_upto cap f (Stdlib.Int.succ r) n'
           ((fun (a : int) b -> if a >= b then a else b) acc (f r)))
    n

(** val permute_traffic : mesh -> report -> int **)

let permute_traffic m rep =
  match filter (fun s -> is_permute s.sr_collective) rep.rp_steps with
  | [] -> 0
  | s :: l ->
    (match l with
     | [] -> first_received s 0 (mesh_size m)
     | s0 :: l0 ->
       let perms = s :: (s0 :: l0) in
       max_upto (fold_left (+) (map (fun s1 -> s1.sr_local_size) perms) 0)
         (fun r -> fold_left (+) (map (fun s1 -> s1.sr_recv r) perms) 0) 0
         (mesh_size m) 0)

(** val plan_traffic : mesh -> report -> int **)

let plan_traffic m rep =
  (+) (fixed_traffic rep) (permute_traffic m rep)

(** val assess :
    mesh -> ty -> ty -> refinement -> plan -> (((int * int) * mesh) * report)
    option **)

let assess m src tgt rf p =
  if negb (refine_ok m rf)
  then None
  else let m' = refine_mesh rf m in
       let src' = refine_ty rf src in
       let tgt' = refine_ty rf tgt in
       (match check m' src' tgt' p with
        | OK rep ->
          if (&&)
               (trace_peak_ok m' src' p
                 ((fun (a : int) b -> if a >= b then a else b)
                   (local_size m src) (local_size m tgt))) (normal_form p)
          then Some ((((fixed_traffic rep), (length p)), m'), rep)
          else None
        | Error _ -> None)

(** val cost_lt : (int * int) -> (int * int) -> bool **)

let cost_lt a b =
  (||) ((fun (a : int) b -> a < b) (fst a) (fst b))
    ((&&) ((fun (a : int) b -> a = b) (fst a) (fst b))
      ((fun (a : int) b -> a < b) (snd a) (snd b)))

(** val best :
    mesh -> ty -> ty -> (refinement * plan) list ->
    ((refinement * plan) * (int * int)) option **)

let rec best m src tgt = function
| [] -> None
| p0 :: cs ->
  let (rf, p) = p0 in
  let rest = best m src tgt cs in
  (match assess m src tgt rf p with
   | Some p1 ->
     let (p2, rep) = p1 in
     let (p3, m') = p2 in
     let (lb, len) = p3 in
     (match rest with
      | Some p4 ->
        let (_, c') = p4 in
        if cost_lt c' (lb, len)
        then rest
        else let c = (((+) lb (permute_traffic m' rep)), len) in
             if cost_lt c' c then rest else Some ((rf, p), c)
      | None -> Some ((rf, p), (((+) lb (permute_traffic m' rep)), len)))
   | None -> rest)

(** val collective_eqb : collective -> collective -> bool **)

let collective_eqb a b =
  match a with
  | DynSlice (d, x) ->
    (match b with
     | DynSlice (e, y) ->
       (&&) ((fun (a : int) b -> a = b) d e) ((fun (a : int) b -> a = b) x y)
     | _ -> false)
  | AllGather d ->
    (match b with
     | AllGather e -> (fun (a : int) b -> a = b) d e
     | _ -> false)
  | AllToAll (s, u) ->
    (match b with
     | AllToAll (s', u') ->
       (&&) ((fun (a : int) b -> a = b) s s')
         ((fun (a : int) b -> a = b) u u')
     | _ -> false)
  | AllPermute t0 -> (match b with
                      | AllPermute t' -> ty_eqb t0 t'
                      | _ -> false)

(** val plan_eqb : plan -> plan -> bool **)

let rec plan_eqb p q =
  match p with
  | [] -> (match q with
           | [] -> true
           | _ :: _ -> false)
  | a :: p' ->
    (match q with
     | [] -> false
     | b :: q' -> (&&) (collective_eqb a b) (plan_eqb p' q'))

(** val dedup_plans : plan list -> plan list **)

let rec dedup_plans = function
| [] -> []
| p :: ps' -> p :: (filter (fun q -> negb (plan_eqb p q)) (dedup_plans ps'))

(** val plans_on : mesh -> ty -> ty -> plan list **)

let plans_on m src tgt =
  let ns = local_shape m src in
  let nt = local_shape m tgt in
  let l1 = Nat.gcd (prod0 ns) (prod0 nt) in
  let l2 =
    prod0 (map (fun pat -> let (a, b) = pat in Nat.gcd a b) (combine ns nt))
  in
  dedup_plans
    ((build false m src tgt l1) :: ((build false m src tgt l2) :: ((build
                                                                    true m
                                                                    src tgt
                                                                    l1) :: (
    (build true m src tgt l2) :: []))))

(** val candidates : mesh -> ty -> ty -> (refinement * plan) list **)

let candidates m src tgt =
  flat_map (fun rf ->
    map (fun p -> (rf, p))
      (plans_on (refine_mesh rf m) (refine_ty rf src) (refine_ty rf tgt)))
    (candidate_refinements m)

(** val gather_all_from : int -> ty -> plan **)

let rec gather_all_from i = function
| [] -> []
| d :: t' ->
  app (repeat (AllGather i) (length (fst d)))
    (gather_all_from (Stdlib.Int.succ i) t')

(** val slice_all_from : int -> ty -> plan **)

let rec slice_all_from i = function
| [] -> []
| d :: t' ->
  app (map (fun x -> DynSlice (i, x)) (fst d))
    (slice_all_from (Stdlib.Int.succ i) t')

(** val easy_plan : ty -> ty -> plan **)

let easy_plan src tgt =
  app (gather_all_from 0 src) (slice_all_from 0 tgt)

(** val planner_choice :
    mesh -> ty -> ty -> ((refinement * plan) * (int * int)) option **)

let planner_choice m src tgt =
  best m src tgt (candidates m src tgt)

(** val planner : mesh -> ty -> ty -> refinement * plan **)

let planner m src tgt =
  match planner_choice m src tgt with
  | Some p0 -> let (p1, _) = p0 in p1
  | None -> ([], (easy_plan src tgt))

(** val planner_in_normal_form : mesh -> ty -> ty -> bool **)

let planner_in_normal_form m src tgt =
  match planner_choice m src tgt with
  | Some _ -> true
  | None -> false

module Sort =
 functor (X:TotalLeBool') ->
 struct
  (** val merge : X.t list -> X.t list -> X.t list **)

  let rec merge l1 l2 =
    let rec merge_aux l3 =
      match l1 with
      | [] -> l3
      | a1 :: l1' ->
        (match l3 with
         | [] -> l1
         | a2 :: l2' ->
           if X.leb a1 a2 then a1 :: (merge l1' l3) else a2 :: (merge_aux l2'))
    in merge_aux l2

  (** val merge_list_to_stack :
      X.t list option list -> X.t list -> X.t list option list **)

  let rec merge_list_to_stack stack l =
    match stack with
    | [] -> (Some l) :: []
    | y :: stack' ->
      (match y with
       | Some l' -> None :: (merge_list_to_stack stack' (merge l' l))
       | None -> (Some l) :: stack')

  (** val merge_stack : X.t list option list -> X.t list **)

  let rec merge_stack = function
  | [] -> []
  | y :: stack' ->
    (match y with
     | Some l -> merge l (merge_stack stack')
     | None -> merge_stack stack')

  (** val iter_merge : X.t list option list -> X.t list -> X.t list **)

  let rec iter_merge stack = function
  | [] -> merge_stack stack
  | a :: l' -> iter_merge (merge_list_to_stack stack (a :: [])) l'

  (** val sort : X.t list -> X.t list **)

  let sort =
    iter_merge []

  (** val flatten_stack : X.t list option list -> X.t list **)

  let rec flatten_stack = function
  | [] -> []
  | o :: stack' ->
    (match o with
     | Some l -> app l (flatten_stack stack')
     | None -> flatten_stack stack')
 end

module NatOrder =
 struct
  type t = int

  (** val leb : int -> int -> bool **)

  let rec leb = (fun (a : int) b -> a <= b)
 end

module NatSort = Sort(NatOrder)

type pmesh = { pm_mesh : mesh; pm_ranks : int list }

(** val placed_at : mesh -> int -> pmesh **)

let placed_at m k =
  { pm_mesh = m; pm_ranks = (seq k (mesh_size m)) }

(** val increasingb : int list -> bool **)

let rec increasingb = function
| [] -> true
| x :: ws' ->
  (match ws' with
   | [] -> true
   | y :: _ -> (&&) ((fun (a : int) b -> a < b) x y) (increasingb ws'))

(** val ranks_distinct : int list -> bool **)

let ranks_distinct ws =
  (||) (increasingb ws) (increasingb (NatSort.sort ws))

(** val pmesh_wf : pmesh -> bool **)

let pmesh_wf pm =
  (&&)
    ((&&) (mesh_wf pm.pm_mesh)
      ((fun (a : int) b -> a = b) (length pm.pm_ranks) (mesh_size pm.pm_mesh)))
    (ranks_distinct pm.pm_ranks)

(** val index_of : int -> int list -> int option **)

let rec index_of w = function
| [] -> None
| x :: ws' ->
  if (fun (a : int) b -> a = b) x w
  then Some 0
  else option_map (fun x0 -> Stdlib.Int.succ x0) (index_of w ws')

(** val ceil_div : int -> int -> int **)

let ceil_div n p =
  (fun a b -> if b = 0 then 0 else a / b)
    ((fun (a : int) b -> if a >= b then a - b else 0) ((+) n p)
      (Stdlib.Int.succ 0)) p

(** val block_size : mesh -> dimty -> int **)

let block_size m d =
  ceil_div (snd d) (shards m d)

type box = (int * int) list

(** val dim_block : mesh -> dimty -> device -> int * int **)

let dim_block m d c =
  let b = block_size m d in
  let j = radix m c (fst d) in
  let lo = (fun (a : int) b -> if a <= b then a else b) (snd d) (( * ) j b) in
  (lo,
  ((fun (a : int) b -> if a >= b then a - b else 0)
    ((fun (a : int) b -> if a <= b then a else b) (snd d)
      (( * ) (Stdlib.Int.succ j) b)) lo))

(** val dev_box : mesh -> ty -> device -> box **)

let dev_box m t0 c =
  map (fun d -> dim_block m d c) t0

(** val box_shape : box -> int list **)

let box_shape b =
  map snd b

(** val box_size : box -> int **)

let box_size b =
  prod0 (box_shape b)

(** val box_global : box -> int list -> int list **)

let rec box_global b l =
  match b with
  | [] -> []
  | p :: b' ->
    let (lo, _) = p in
    (match l with
     | [] -> []
     | i :: l' -> ((+) lo i) :: (box_global b' l'))

(** val box_local : box -> int list -> int list **)

let rec box_local b i =
  match b with
  | [] -> []
  | p :: b' ->
    let (lo, _) = p in
    (match i with
     | [] -> []
     | x :: i' ->
       ((fun (a : int) b -> if a >= b then a - b else 0) x lo) :: (box_local
                                                                    b' i'))

(** val box_has : box -> int list -> bool **)

let rec box_has b i =
  match b with
  | [] -> (match i with
           | [] -> true
           | _ :: _ -> false)
  | p :: b' ->
    let (lo, n) = p in
    (match i with
     | [] -> false
     | x :: i' ->
       (&&)
         ((&&) ((fun (a : int) b -> a <= b) lo x)
           ((fun (a : int) b -> a < b) x ((+) lo n))) (box_has b' i'))

type layout = { ly_mesh : pmesh; ly_ty : ty }

(** val ly_m : layout -> mesh **)

let ly_m l =
  l.ly_mesh.pm_mesh

(** val lty_wf : mesh -> ty -> bool **)

let lty_wf m t0 =
  (&&)
    (forallb (fun d -> forallb (fun x -> memb x (mesh_axes m)) (fst d)) t0)
    (nodupb (ty_axes t0))

(** val layout_wf : layout -> bool **)

let layout_wf l =
  (&&) (pmesh_wf l.ly_mesh) (lty_wf (ly_m l) l.ly_ty)

(** val layouts_wf : layout -> layout -> bool **)

let layouts_wf s t0 =
  (&&) ((&&) (layout_wf s) (layout_wf t0))
    (list_eqb (global_shape s.ly_ty) (global_shape t0.ly_ty))

(** val pl_box : layout -> int -> box option **)

let pl_box l w =
  match index_of w l.ly_mesh.pm_ranks with
  | Some k -> Some (dev_box (ly_m l) l.ly_ty (device_of_rank (ly_m l) k))
  | None -> None

(** val has_opt : box option -> int list -> bool **)

let has_opt ob i =
  match ob with
  | Some b -> box_has b i
  | None -> false

type shapes = int -> int list option

(** val pl_shapes : layout -> shapes **)

let pl_shapes l w =
  option_map box_shape (pl_box l w)

(** val positions : shapes -> int -> int list list **)

let positions sh r =
  match sh r with
  | Some s -> box_indices s
  | None -> []

type wire_map = int -> int list -> int * int list

(** val run_wire : wire_map -> 'a1 state -> 'a1 state **)

let run_wire wr st r l =
  st (fst (wr r l)) (snd (wr r l))

(** val wire_received : wire_map -> shapes -> int -> int **)

let wire_received wr sh r =
  length
    (filter (fun l -> negb ((fun (a : int) b -> a = b) (fst (wr r l)) r))
      (positions sh r))

(** val missing : layout -> layout -> int -> int list list **)

let missing s t0 r =
  match pl_box t0 r with
  | Some b ->
    filter (fun i -> negb (has_opt (pl_box s r) i))
      (map (box_global b) (box_indices (box_shape b)))
  | None -> []

(** val overlap_size : box -> box -> int **)

let overlap_size b b' =
  prod0
    (map (fun p ->
      overlap (fst (fst p)) (snd (fst p)) (fst (snd p)) (snd (snd p)))
      (combine b b'))

(** val recv_lower_bound : layout -> layout -> int -> int **)

let recv_lower_bound s t0 r =
  match pl_box t0 r with
  | Some b ->
    (fun (a : int) b -> if a >= b then a - b else 0) (box_size b)
      (match pl_box s r with
       | Some sb -> overlap_size sb b
       | None -> 0)
  | None -> 0

type holder_choice = int -> int list -> int

(** val exchange_wire : layout -> layout -> holder_choice -> wire_map **)

let exchange_wire s t0 h r l =
  match pl_box t0 r with
  | Some b ->
    let i = box_global b l in
    let s0 = h r i in
    (s0, (match pl_box s s0 with
          | Some sb -> box_local sb i
          | None -> i))
  | None -> (r, l)

(** val exchange :
    layout -> layout -> holder_choice -> 'a1 state -> 'a1 state **)

let exchange s t0 h st =
  run_wire (exchange_wire s t0 h) st

(** val exchange_received :
    layout -> layout -> holder_choice -> int -> int **)

let exchange_received s t0 h r =
  wire_received (exchange_wire s t0 h) (pl_shapes t0) r

(** val mesh_boxes : layout -> (int * box) list **)

let mesh_boxes l =
  combine l.ly_mesh.pm_ranks
    (map (fun k -> dev_box (ly_m l) l.ly_ty (device_of_rank (ly_m l) k))
      (seq 0 (length l.ly_mesh.pm_ranks)))

(** val holders_in : (int * box) list -> int list -> int list **)

let holders_in boxes_S i =
  map fst (filter (fun wb -> box_has (snd wb) i) boxes_S)

(** val holders_of : layout -> int list -> int list **)

let holders_of s i =
  holders_in (mesh_boxes s) i

(** val needers_in :
    (int * box) list -> (int * box) list -> int list -> int list **)

let needers_in boxes_S boxes_T i =
  let hs = holders_in boxes_S i in
  map fst
    (filter (fun wb -> (&&) (box_has (snd wb) i) (negb (memb (fst wb) hs)))
      boxes_T)

(** val needers_of : layout -> layout -> int list -> int list **)

let needers_of s t0 i =
  needers_in (mesh_boxes s) (mesh_boxes t0) i

(** val spread_in :
    (int * box) list -> (int * box) list -> layout -> holder_choice **)

let spread_in boxes_S boxes_T s r i =
  if has_opt (pl_box s r) i
  then r
  else let hs = holders_in boxes_S i in
       let k =
         match index_of r (needers_in boxes_S boxes_T i) with
         | Some k -> k
         | None -> 0
       in
       nth ((fun a b -> if b = 0 then a else a mod b) k (length hs)) hs r

(** val spread_holder : layout -> layout -> holder_choice **)

let spread_holder s t0 =
  spread_in (mesh_boxes s) (mesh_boxes t0) s

(** val block_key : mesh -> ty -> int list -> int list **)

let rec block_key m t0 i =
  match t0 with
  | [] -> []
  | d :: t' ->
    (match i with
     | [] -> []
     | x :: i' ->
       ((fun a b -> if b = 0 then 0 else a / b) x (block_size m d)) :: 
         (block_key m t' i'))

(** val cuts : int -> int -> int -> int -> int -> (int * int) list **)

let rec cuts fuel lo hi bs bt =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> [])
    (fun f ->
    if (fun (a : int) b -> a < b) lo hi
    then let next =
           (fun (a : int) b -> if a <= b then a else b) hi
             ((fun (a : int) b -> if a <= b then a else b)
               (( * ) (Stdlib.Int.succ
                 ((fun a b -> if b = 0 then 0 else a / b) lo bs)) bs)
               (( * ) (Stdlib.Int.succ
                 ((fun a b -> if b = 0 then 0 else a / b) lo bt)) bt))
         in
         (lo,
         ((fun (a : int) b -> if a >= b then a - b else 0) next lo)) :: 
         (cuts f next hi bs bt)
    else [])
    fuel

(** val dims_cuts : box -> int list -> int list -> (int * int) list list **)

let rec dims_cuts tb bss bts =
  match tb with
  | [] -> []
  | p :: tb' ->
    let (lo, n) = p in
    (match bss with
     | [] -> []
     | bs :: bss' ->
       (match bts with
        | [] -> []
        | bt :: bts' ->
          (cuts n lo ((+) lo n)
            ((fun (a : int) b -> if a >= b then a else b) (Stdlib.Int.succ 0)
              bs)
            ((fun (a : int) b -> if a >= b then a else b) (Stdlib.Int.succ 0)
              bt)) :: (dims_cuts tb' bss' bts')))

(** val cell_boxes : (int * int) list list -> box list **)

let rec cell_boxes = function
| [] -> [] :: []
| ivs :: rest ->
  flat_map (fun iv -> map (fun x -> iv :: x) (cell_boxes rest)) ivs

(** val recv_cells : layout -> layout -> int -> box list **)

let recv_cells s t0 r =
  match pl_box t0 r with
  | Some tb ->
    cell_boxes
      (dims_cuts tb (map (block_size (ly_m s)) s.ly_ty)
        (map (block_size (ly_m t0)) t0.ly_ty))
  | None -> []

(** val recv_messages : layout -> layout -> int -> (int * box) list **)

let recv_messages s t0 r =
  let h = spread_in (mesh_boxes s) (mesh_boxes t0) s in
  map (fun c -> ((h r (map fst c)), c)) (recv_cells s t0 r)

type 'x compare0 =
| LT
| EQ
| GT

module type OrderedType =
 sig
  type t

  val compare : t -> t -> t compare0

  val eq_dec : t -> t -> bool
 end

module OrderedTypeFacts =
 functor (O:OrderedType) ->
 struct
  module TO =
   struct
    type t = O.t
   end

  module IsTO =
   struct
   end

  module OrderTac = MakeOrderTac(TO)(IsTO)

  (** val eq_dec : O.t -> O.t -> bool **)

  let eq_dec =
    O.eq_dec

  (** val lt_dec : O.t -> O.t -> bool **)

  let lt_dec x y =
    match O.compare x y with
    | LT -> true
    | _ -> false

  (** val eqb : O.t -> O.t -> bool **)

  let eqb x y =
    if eq_dec x y then true else false
 end

module KeyOrderedType =
 functor (O:OrderedType) ->
 struct
  module MO = OrderedTypeFacts(O)
 end

module Raw =
 functor (X:OrderedType) ->
 struct
  module MX = OrderedTypeFacts(X)

  module PX = KeyOrderedType(X)

  type key = X.t

  type 'elt t = (X.t * 'elt) list

  (** val empty : 'a1 t **)

  let empty =
    []

  (** val is_empty : 'a1 t -> bool **)

  let is_empty = function
  | [] -> true
  | _ :: _ -> false

  (** val mem : key -> 'a1 t -> bool **)

  let rec mem k = function
  | [] -> false
  | p :: l ->
    let (k', _) = p in
    (match X.compare k k' with
     | LT -> false
     | EQ -> true
     | GT -> mem k l)

  type 'elt coq_R_mem =
  | R_mem_0 of 'elt t
  | R_mem_1 of 'elt t * X.t * 'elt * (X.t * 'elt) list
  | R_mem_2 of 'elt t * X.t * 'elt * (X.t * 'elt) list
  | R_mem_3 of 'elt t * X.t * 'elt * (X.t * 'elt) list * bool * 'elt coq_R_mem

  (** val coq_R_mem_rect :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> bool -> 'a1 coq_R_mem -> 'a2 -> 'a2) -> 'a1 t ->
      bool -> 'a1 coq_R_mem -> 'a2 **)

  let rec coq_R_mem_rect k f f0 f1 f2 _ _ = function
  | R_mem_0 s -> f s __
  | R_mem_1 (s, k', _x, l) -> f0 s k' _x l __ __ __
  | R_mem_2 (s, k', _x, l) -> f1 s k' _x l __ __ __
  | R_mem_3 (s, k', _x, l, _res, r0) ->
    f2 s k' _x l __ __ __ _res r0 (coq_R_mem_rect k f f0 f1 f2 l _res r0)

  (** val coq_R_mem_rec :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> bool -> 'a1 coq_R_mem -> 'a2 -> 'a2) -> 'a1 t ->
      bool -> 'a1 coq_R_mem -> 'a2 **)

  let rec coq_R_mem_rec k f f0 f1 f2 _ _ = function
  | R_mem_0 s -> f s __
  | R_mem_1 (s, k', _x, l) -> f0 s k' _x l __ __ __
  | R_mem_2 (s, k', _x, l) -> f1 s k' _x l __ __ __
  | R_mem_3 (s, k', _x, l, _res, r0) ->
    f2 s k' _x l __ __ __ _res r0 (coq_R_mem_rec k f f0 f1 f2 l _res r0)

  (** val mem_rect :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2 -> 'a2) -> 'a1 t -> 'a2 **)

  let rec mem_rect k f f0 f1 f2 s =
    let f3 = f s in
    let f4 = f0 s in
    let f5 = f1 s in
    let f6 = f2 s in
    (match s with
     | [] -> f3 __
     | a :: l ->
       let (a0, b) = a in
       let f7 = f6 a0 b l __ in
       let f8 = fun _ _ -> let hrec = mem_rect k f f0 f1 f2 l in f7 __ __ hrec
       in
       let f9 = f5 a0 b l __ in
       let f10 = f4 a0 b l __ in
       (match X.compare k a0 with
        | LT -> f10 __ __
        | EQ -> f9 __ __
        | GT -> f8 __ __))

  (** val mem_rec :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2 -> 'a2) -> 'a1 t -> 'a2 **)

  let mem_rec =
    mem_rect

  (** val coq_R_mem_correct : key -> 'a1 t -> bool -> 'a1 coq_R_mem **)

  let coq_R_mem_correct k s _res =
    Obj.magic mem_rect k (fun y _ _ _ -> R_mem_0 y)
      (fun y y0 y1 y2 _ _ _ _ _ -> R_mem_1 (y, y0, y1, y2))
      (fun y y0 y1 y2 _ _ _ _ _ -> R_mem_2 (y, y0, y1, y2))
      (fun y y0 y1 y2 _ _ _ y6 _ _ -> R_mem_3 (y, y0, y1, y2, (mem k y2),
      (y6 (mem k y2) __))) s _res __

  (** val find : key -> 'a1 t -> 'a1 option **)

  let rec find k = function
  | [] -> None
  | p :: s' ->
    let (k', x) = p in
    (match X.compare k k' with
     | LT -> None
     | EQ -> Some x
     | GT -> find k s')

  type 'elt coq_R_find =
  | R_find_0 of 'elt t
  | R_find_1 of 'elt t * X.t * 'elt * (X.t * 'elt) list
  | R_find_2 of 'elt t * X.t * 'elt * (X.t * 'elt) list
  | R_find_3 of 'elt t * X.t * 'elt * (X.t * 'elt) list * 'elt option
     * 'elt coq_R_find

  (** val coq_R_find_rect :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a1 option -> 'a1 coq_R_find -> 'a2 -> 'a2) -> 'a1
      t -> 'a1 option -> 'a1 coq_R_find -> 'a2 **)

  let rec coq_R_find_rect k f f0 f1 f2 _ _ = function
  | R_find_0 s -> f s __
  | R_find_1 (s, k', x, s') -> f0 s k' x s' __ __ __
  | R_find_2 (s, k', x, s') -> f1 s k' x s' __ __ __
  | R_find_3 (s, k', x, s', _res, r0) ->
    f2 s k' x s' __ __ __ _res r0 (coq_R_find_rect k f f0 f1 f2 s' _res r0)

  (** val coq_R_find_rec :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a1 option -> 'a1 coq_R_find -> 'a2 -> 'a2) -> 'a1
      t -> 'a1 option -> 'a1 coq_R_find -> 'a2 **)

  let rec coq_R_find_rec k f f0 f1 f2 _ _ = function
  | R_find_0 s -> f s __
  | R_find_1 (s, k', x, s') -> f0 s k' x s' __ __ __
  | R_find_2 (s, k', x, s') -> f1 s k' x s' __ __ __
  | R_find_3 (s, k', x, s', _res, r0) ->
    f2 s k' x s' __ __ __ _res r0 (coq_R_find_rec k f f0 f1 f2 s' _res r0)

  (** val find_rect :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2 -> 'a2) -> 'a1 t -> 'a2 **)

  let rec find_rect k f f0 f1 f2 s =
    let f3 = f s in
    let f4 = f0 s in
    let f5 = f1 s in
    let f6 = f2 s in
    (match s with
     | [] -> f3 __
     | a :: l ->
       let (a0, b) = a in
       let f7 = f6 a0 b l __ in
       let f8 = fun _ _ ->
         let hrec = find_rect k f f0 f1 f2 l in f7 __ __ hrec
       in
       let f9 = f5 a0 b l __ in
       let f10 = f4 a0 b l __ in
       (match X.compare k a0 with
        | LT -> f10 __ __
        | EQ -> f9 __ __
        | GT -> f8 __ __))

  (** val find_rec :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2 -> 'a2) -> 'a1 t -> 'a2 **)

  let find_rec =
    find_rect

  (** val coq_R_find_correct :
      key -> 'a1 t -> 'a1 option -> 'a1 coq_R_find **)

  let coq_R_find_correct k s _res =
    Obj.magic find_rect k (fun y _ _ _ -> R_find_0 y)
      (fun y y0 y1 y2 _ _ _ _ _ -> R_find_1 (y, y0, y1, y2))
      (fun y y0 y1 y2 _ _ _ _ _ -> R_find_2 (y, y0, y1, y2))
      (fun y y0 y1 y2 _ _ _ y6 _ _ -> R_find_3 (y, y0, y1, y2, (find k y2),
      (y6 (find k y2) __))) s _res __

  (** val add : key -> 'a1 -> 'a1 t -> 'a1 t **)

  let rec add k x s = match s with
  | [] -> (k, x) :: []
  | p :: l ->
    let (k', y) = p in
    (match X.compare k k' with
     | LT -> (k, x) :: s
     | EQ -> (k, x) :: l
     | GT -> (k', y) :: (add k x l))

  type 'elt coq_R_add =
  | R_add_0 of 'elt t
  | R_add_1 of 'elt t * X.t * 'elt * (X.t * 'elt) list
  | R_add_2 of 'elt t * X.t * 'elt * (X.t * 'elt) list
  | R_add_3 of 'elt t * X.t * 'elt * (X.t * 'elt) list * 'elt t
     * 'elt coq_R_add

  (** val coq_R_add_rect :
      key -> 'a1 -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a1 t -> 'a1 coq_R_add -> 'a2 ->
      'a2) -> 'a1 t -> 'a1 t -> 'a1 coq_R_add -> 'a2 **)

  let rec coq_R_add_rect k x f f0 f1 f2 _ _ = function
  | R_add_0 s -> f s __
  | R_add_1 (s, k', y, l) -> f0 s k' y l __ __ __
  | R_add_2 (s, k', y, l) -> f1 s k' y l __ __ __
  | R_add_3 (s, k', y, l, _res, r0) ->
    f2 s k' y l __ __ __ _res r0 (coq_R_add_rect k x f f0 f1 f2 l _res r0)

  (** val coq_R_add_rec :
      key -> 'a1 -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a1 t -> 'a1 coq_R_add -> 'a2 ->
      'a2) -> 'a1 t -> 'a1 t -> 'a1 coq_R_add -> 'a2 **)

  let rec coq_R_add_rec k x f f0 f1 f2 _ _ = function
  | R_add_0 s -> f s __
  | R_add_1 (s, k', y, l) -> f0 s k' y l __ __ __
  | R_add_2 (s, k', y, l) -> f1 s k' y l __ __ __
  | R_add_3 (s, k', y, l, _res, r0) ->
    f2 s k' y l __ __ __ _res r0 (coq_R_add_rec k x f f0 f1 f2 l _res r0)

  (** val add_rect :
      key -> 'a1 -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2 -> 'a2) -> 'a1 t -> 'a2 **)

  let rec add_rect k x f f0 f1 f2 s =
    let f3 = f s in
    let f4 = f0 s in
    let f5 = f1 s in
    let f6 = f2 s in
    (match s with
     | [] -> f3 __
     | a :: l ->
       let (a0, b) = a in
       let f7 = f6 a0 b l __ in
       let f8 = fun _ _ ->
         let hrec = add_rect k x f f0 f1 f2 l in f7 __ __ hrec
       in
       let f9 = f5 a0 b l __ in
       let f10 = f4 a0 b l __ in
       (match X.compare k a0 with
        | LT -> f10 __ __
        | EQ -> f9 __ __
        | GT -> f8 __ __))

  (** val add_rec :
      key -> 'a1 -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2 -> 'a2) -> 'a1 t -> 'a2 **)

  let add_rec =
    add_rect

  (** val coq_R_add_correct :
      key -> 'a1 -> 'a1 t -> 'a1 t -> 'a1 coq_R_add **)

  let coq_R_add_correct k x s _res =
    add_rect k x (fun y _ _ _ -> R_add_0 y) (fun y y0 y1 y2 _ _ _ _ _ ->
      R_add_1 (y, y0, y1, y2)) (fun y y0 y1 y2 _ _ _ _ _ -> R_add_2 (y, y0,
      y1, y2)) (fun y y0 y1 y2 _ _ _ y6 _ _ -> R_add_3 (y, y0, y1, y2,
      (add k x y2), (y6 (add k x y2) __))) s _res __

  (** val remove : key -> 'a1 t -> 'a1 t **)

  let rec remove k s = match s with
  | [] -> []
  | p :: l ->
    let (k', x) = p in
    (match X.compare k k' with
     | LT -> s
     | EQ -> l
     | GT -> (k', x) :: (remove k l))

  type 'elt coq_R_remove =
  | R_remove_0 of 'elt t
  | R_remove_1 of 'elt t * X.t * 'elt * (X.t * 'elt) list
  | R_remove_2 of 'elt t * X.t * 'elt * (X.t * 'elt) list
  | R_remove_3 of 'elt t * X.t * 'elt * (X.t * 'elt) list * 'elt t
     * 'elt coq_R_remove

  (** val coq_R_remove_rect :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a1 t -> 'a1 coq_R_remove -> 'a2 -> 'a2) -> 'a1 t
      -> 'a1 t -> 'a1 coq_R_remove -> 'a2 **)

  let rec coq_R_remove_rect k f f0 f1 f2 _ _ = function
  | R_remove_0 s -> f s __
  | R_remove_1 (s, k', x, l) -> f0 s k' x l __ __ __
  | R_remove_2 (s, k', x, l) -> f1 s k' x l __ __ __
  | R_remove_3 (s, k', x, l, _res, r0) ->
    f2 s k' x l __ __ __ _res r0 (coq_R_remove_rect k f f0 f1 f2 l _res r0)

  (** val coq_R_remove_rec :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a1 t -> 'a1 coq_R_remove -> 'a2 -> 'a2) -> 'a1 t
      -> 'a1 t -> 'a1 coq_R_remove -> 'a2 **)

  let rec coq_R_remove_rec k f f0 f1 f2 _ _ = function
  | R_remove_0 s -> f s __
  | R_remove_1 (s, k', x, l) -> f0 s k' x l __ __ __
  | R_remove_2 (s, k', x, l) -> f1 s k' x l __ __ __
  | R_remove_3 (s, k', x, l, _res, r0) ->
    f2 s k' x l __ __ __ _res r0 (coq_R_remove_rec k f f0 f1 f2 l _res r0)

  (** val remove_rect :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2 -> 'a2) -> 'a1 t -> 'a2 **)

  let rec remove_rect k f f0 f1 f2 s =
    let f3 = f s in
    let f4 = f0 s in
    let f5 = f1 s in
    let f6 = f2 s in
    (match s with
     | [] -> f3 __
     | a :: l ->
       let (a0, b) = a in
       let f7 = f6 a0 b l __ in
       let f8 = fun _ _ ->
         let hrec = remove_rect k f f0 f1 f2 l in f7 __ __ hrec
       in
       let f9 = f5 a0 b l __ in
       let f10 = f4 a0 b l __ in
       (match X.compare k a0 with
        | LT -> f10 __ __
        | EQ -> f9 __ __
        | GT -> f8 __ __))

  (** val remove_rec :
      key -> ('a1 t -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2) -> ('a1 t -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> __ -> __ -> 'a2 -> 'a2) -> 'a1 t -> 'a2 **)

  let remove_rec =
    remove_rect

  (** val coq_R_remove_correct : key -> 'a1 t -> 'a1 t -> 'a1 coq_R_remove **)

  let coq_R_remove_correct k s _res =
    Obj.magic remove_rect k (fun y _ _ _ -> R_remove_0 y)
      (fun y y0 y1 y2 _ _ _ _ _ -> R_remove_1 (y, y0, y1, y2))
      (fun y y0 y1 y2 _ _ _ _ _ -> R_remove_2 (y, y0, y1, y2))
      (fun y y0 y1 y2 _ _ _ y6 _ _ -> R_remove_3 (y, y0, y1, y2,
      (remove k y2), (y6 (remove k y2) __))) s _res __

  (** val elements : 'a1 t -> 'a1 t **)

  let elements m =
    m

  (** val fold : (key -> 'a1 -> 'a2 -> 'a2) -> 'a1 t -> 'a2 -> 'a2 **)

  let rec fold f m acc =
    match m with
    | [] -> acc
    | p :: m' -> let (k, e) = p in fold f m' (f k e acc)

  type ('elt, 'a) coq_R_fold =
  | R_fold_0 of 'elt t * 'a
  | R_fold_1 of 'elt t * 'a * X.t * 'elt * (X.t * 'elt) list * 'a
     * ('elt, 'a) coq_R_fold

  (** val coq_R_fold_rect :
      (key -> 'a1 -> 'a2 -> 'a2) -> ('a1 t -> 'a2 -> __ -> 'a3) -> ('a1 t ->
      'a2 -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> 'a2 -> ('a1, 'a2)
      coq_R_fold -> 'a3 -> 'a3) -> 'a1 t -> 'a2 -> 'a2 -> ('a1, 'a2)
      coq_R_fold -> 'a3 **)

  let rec coq_R_fold_rect f f0 f1 _ _ _ = function
  | R_fold_0 (m, acc) -> f0 m acc __
  | R_fold_1 (m, acc, k, e, m', _res, r0) ->
    f1 m acc k e m' __ _res r0
      (coq_R_fold_rect f f0 f1 m' (f k e acc) _res r0)

  (** val coq_R_fold_rec :
      (key -> 'a1 -> 'a2 -> 'a2) -> ('a1 t -> 'a2 -> __ -> 'a3) -> ('a1 t ->
      'a2 -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> 'a2 -> ('a1, 'a2)
      coq_R_fold -> 'a3 -> 'a3) -> 'a1 t -> 'a2 -> 'a2 -> ('a1, 'a2)
      coq_R_fold -> 'a3 **)

  let rec coq_R_fold_rec f f0 f1 _ _ _ = function
  | R_fold_0 (m, acc) -> f0 m acc __
  | R_fold_1 (m, acc, k, e, m', _res, r0) ->
    f1 m acc k e m' __ _res r0 (coq_R_fold_rec f f0 f1 m' (f k e acc) _res r0)

  (** val fold_rect :
      (key -> 'a1 -> 'a2 -> 'a2) -> ('a1 t -> 'a2 -> __ -> 'a3) -> ('a1 t ->
      'a2 -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> 'a3 -> 'a3) -> 'a1 t ->
      'a2 -> 'a3 **)

  let rec fold_rect f f0 f1 m acc =
    let f2 = f0 m acc in
    let f3 = f1 m acc in
    (match m with
     | [] -> f2 __
     | a :: l ->
       let (a0, b) = a in
       let f4 = f3 a0 b l __ in
       let hrec = fold_rect f f0 f1 l (f a0 b acc) in f4 hrec)

  (** val fold_rec :
      (key -> 'a1 -> 'a2 -> 'a2) -> ('a1 t -> 'a2 -> __ -> 'a3) -> ('a1 t ->
      'a2 -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> 'a3 -> 'a3) -> 'a1 t ->
      'a2 -> 'a3 **)

  let fold_rec =
    fold_rect

  (** val coq_R_fold_correct :
      (key -> 'a1 -> 'a2 -> 'a2) -> 'a1 t -> 'a2 -> 'a2 -> ('a1, 'a2)
      coq_R_fold **)

  let coq_R_fold_correct f m acc _res =
    fold_rect f (fun y y0 _ _ _ -> R_fold_0 (y, y0))
      (fun y y0 y1 y2 y3 _ y5 _ _ -> R_fold_1 (y, y0, y1, y2, y3,
      (fold f y3 (f y1 y2 y0)), (y5 (fold f y3 (f y1 y2 y0)) __))) m acc _res
      __

  (** val equal : ('a1 -> 'a1 -> bool) -> 'a1 t -> 'a1 t -> bool **)

  let rec equal cmp m m' =
    match m with
    | [] -> (match m' with
             | [] -> true
             | _ :: _ -> false)
    | p :: l ->
      let (x, e) = p in
      (match m' with
       | [] -> false
       | p0 :: l' ->
         let (x', e') = p0 in
         (match X.compare x x' with
          | EQ -> (&&) (cmp e e') (equal cmp l l')
          | _ -> false))

  type 'elt coq_R_equal =
  | R_equal_0 of 'elt t * 'elt t
  | R_equal_1 of 'elt t * 'elt t * X.t * 'elt * (X.t * 'elt) list * X.t
     * 'elt * (X.t * 'elt) list * bool * 'elt coq_R_equal
  | R_equal_2 of 'elt t * 'elt t * X.t * 'elt * (X.t * 'elt) list * X.t
     * 'elt * (X.t * 'elt) list * X.t compare0
  | R_equal_3 of 'elt t * 'elt t * 'elt t * 'elt t

  (** val coq_R_equal_rect :
      ('a1 -> 'a1 -> bool) -> ('a1 t -> 'a1 t -> __ -> __ -> 'a2) -> ('a1 t
      -> 'a1 t -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> bool -> 'a1 coq_R_equal -> 'a2 ->
      'a2) -> ('a1 t -> 'a1 t -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> X.t
      -> 'a1 -> (X.t * 'a1) list -> __ -> X.t compare0 -> __ -> __ -> 'a2) ->
      ('a1 t -> 'a1 t -> 'a1 t -> __ -> 'a1 t -> __ -> __ -> 'a2) -> 'a1 t ->
      'a1 t -> bool -> 'a1 coq_R_equal -> 'a2 **)

  let rec coq_R_equal_rect cmp f f0 f1 f2 _ _ _ = function
  | R_equal_0 (m, m') -> f m m' __ __
  | R_equal_1 (m, m', x, e, l, x', e', l', _res, r0) ->
    f0 m m' x e l __ x' e' l' __ __ __ _res r0
      (coq_R_equal_rect cmp f f0 f1 f2 l l' _res r0)
  | R_equal_2 (m, m', x, e, l, x', e', l', _x) ->
    f1 m m' x e l __ x' e' l' __ _x __ __
  | R_equal_3 (m, m', _x, _x0) -> f2 m m' _x __ _x0 __ __

  (** val coq_R_equal_rec :
      ('a1 -> 'a1 -> bool) -> ('a1 t -> 'a1 t -> __ -> __ -> 'a2) -> ('a1 t
      -> 'a1 t -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> bool -> 'a1 coq_R_equal -> 'a2 ->
      'a2) -> ('a1 t -> 'a1 t -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> X.t
      -> 'a1 -> (X.t * 'a1) list -> __ -> X.t compare0 -> __ -> __ -> 'a2) ->
      ('a1 t -> 'a1 t -> 'a1 t -> __ -> 'a1 t -> __ -> __ -> 'a2) -> 'a1 t ->
      'a1 t -> bool -> 'a1 coq_R_equal -> 'a2 **)

  let rec coq_R_equal_rec cmp f f0 f1 f2 _ _ _ = function
  | R_equal_0 (m, m') -> f m m' __ __
  | R_equal_1 (m, m', x, e, l, x', e', l', _res, r0) ->
    f0 m m' x e l __ x' e' l' __ __ __ _res r0
      (coq_R_equal_rec cmp f f0 f1 f2 l l' _res r0)
  | R_equal_2 (m, m', x, e, l, x', e', l', _x) ->
    f1 m m' x e l __ x' e' l' __ _x __ __
  | R_equal_3 (m, m', _x, _x0) -> f2 m m' _x __ _x0 __ __

  (** val equal_rect :
      ('a1 -> 'a1 -> bool) -> ('a1 t -> 'a1 t -> __ -> __ -> 'a2) -> ('a1 t
      -> 'a1 t -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2 -> 'a2) -> ('a1 t -> 'a1 t ->
      X.t -> 'a1 -> (X.t * 'a1) list -> __ -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> X.t compare0 -> __ -> __ -> 'a2) -> ('a1 t -> 'a1 t -> 'a1 t
      -> __ -> 'a1 t -> __ -> __ -> 'a2) -> 'a1 t -> 'a1 t -> 'a2 **)

  let rec equal_rect cmp f f0 f1 f2 m m' =
    let f3 = f m m' in
    let f4 = f0 m m' in
    let f5 = f1 m m' in
    let f6 = f2 m m' in
    let f7 = f6 m __ in
    let f8 = f7 m' __ in
    (match m with
     | [] -> let f9 = f3 __ in (match m' with
                                | [] -> f9 __
                                | _ :: _ -> f8 __)
     | a :: l ->
       let (a0, b) = a in
       let f9 = f5 a0 b l __ in
       let f10 = f4 a0 b l __ in
       (match m' with
        | [] -> f8 __
        | a1 :: l0 ->
          let (a2, b0) = a1 in
          let f11 = f9 a2 b0 l0 __ in
          let f12 = let _x = X.compare a0 a2 in f11 _x __ in
          let f13 = f10 a2 b0 l0 __ in
          let f14 = fun _ _ ->
            let hrec = equal_rect cmp f f0 f1 f2 l l0 in f13 __ __ hrec
          in
          (match X.compare a0 a2 with
           | EQ -> f14 __ __
           | _ -> f12 __)))

  (** val equal_rec :
      ('a1 -> 'a1 -> bool) -> ('a1 t -> 'a1 t -> __ -> __ -> 'a2) -> ('a1 t
      -> 'a1 t -> X.t -> 'a1 -> (X.t * 'a1) list -> __ -> X.t -> 'a1 ->
      (X.t * 'a1) list -> __ -> __ -> __ -> 'a2 -> 'a2) -> ('a1 t -> 'a1 t ->
      X.t -> 'a1 -> (X.t * 'a1) list -> __ -> X.t -> 'a1 -> (X.t * 'a1) list
      -> __ -> X.t compare0 -> __ -> __ -> 'a2) -> ('a1 t -> 'a1 t -> 'a1 t
      -> __ -> 'a1 t -> __ -> __ -> 'a2) -> 'a1 t -> 'a1 t -> 'a2 **)

  let equal_rec =
    equal_rect

  (** val coq_R_equal_correct :
      ('a1 -> 'a1 -> bool) -> 'a1 t -> 'a1 t -> bool -> 'a1 coq_R_equal **)

  let coq_R_equal_correct cmp m m' _res =
    equal_rect cmp (fun y y0 _ _ _ _ -> R_equal_0 (y, y0))
      (fun y y0 y1 y2 y3 _ y5 y6 y7 _ _ _ y11 _ _ -> R_equal_1 (y, y0, y1,
      y2, y3, y5, y6, y7, (equal cmp y3 y7), (y11 (equal cmp y3 y7) __)))
      (fun y y0 y1 y2 y3 _ y5 y6 y7 _ y9 _ _ _ _ -> R_equal_2 (y, y0, y1, y2,
      y3, y5, y6, y7, y9)) (fun y y0 y1 _ y3 _ _ _ _ -> R_equal_3 (y, y0, y1,
      y3)) m m' _res __

  (** val map : ('a1 -> 'a2) -> 'a1 t -> 'a2 t **)

  let rec map f = function
  | [] -> []
  | p :: m' -> let (k, e) = p in (k, (f e)) :: (map f m')

  (** val mapi : (key -> 'a1 -> 'a2) -> 'a1 t -> 'a2 t **)

  let rec mapi f = function
  | [] -> []
  | p :: m' -> let (k, e) = p in (k, (f k e)) :: (mapi f m')

  (** val option_cons :
      key -> 'a1 option -> (key * 'a1) list -> (key * 'a1) list **)

  let option_cons k o l =
    match o with
    | Some e -> (k, e) :: l
    | None -> l

  (** val map2_l :
      ('a1 option -> 'a2 option -> 'a3 option) -> 'a1 t -> 'a3 t **)

  let rec map2_l f = function
  | [] -> []
  | p :: l -> let (k, e) = p in option_cons k (f (Some e) None) (map2_l f l)

  (** val map2_r :
      ('a1 option -> 'a2 option -> 'a3 option) -> 'a2 t -> 'a3 t **)

  let rec map2_r f = function
  | [] -> []
  | p :: l' ->
    let (k, e') = p in option_cons k (f None (Some e')) (map2_r f l')

  (** val map2 :
      ('a1 option -> 'a2 option -> 'a3 option) -> 'a1 t -> 'a2 t -> 'a3 t **)

  let rec map2 f m = match m with
  | [] -> map2_r f
  | p :: l ->
    let (k, e) = p in
    let rec map2_aux m' = match m' with
    | [] -> map2_l f m
    | p0 :: l' ->
      let (k', e') = p0 in
      (match X.compare k k' with
       | LT -> option_cons k (f (Some e) None) (map2 f l m')
       | EQ -> option_cons k (f (Some e) (Some e')) (map2 f l l')
       | GT -> option_cons k' (f None (Some e')) (map2_aux l'))
    in map2_aux

  (** val combine : 'a1 t -> 'a2 t -> ('a1 option * 'a2 option) t **)

  let rec combine m = match m with
  | [] -> map (fun e' -> (None, (Some e')))
  | p :: l ->
    let (k, e) = p in
    let rec combine_aux m' = match m' with
    | [] -> map (fun e0 -> ((Some e0), None)) m
    | p0 :: l' ->
      let (k', e') = p0 in
      (match X.compare k k' with
       | LT -> (k, ((Some e), None)) :: (combine l m')
       | EQ -> (k, ((Some e), (Some e'))) :: (combine l l')
       | GT -> (k', (None, (Some e'))) :: (combine_aux l'))
    in combine_aux

  (** val fold_right_pair :
      ('a1 -> 'a2 -> 'a3 -> 'a3) -> ('a1 * 'a2) list -> 'a3 -> 'a3 **)

  let fold_right_pair f l i =
    fold_right (fun p -> f (fst p) (snd p)) i l

  (** val map2_alt :
      ('a1 option -> 'a2 option -> 'a3 option) -> 'a1 t -> 'a2 t ->
      (key * 'a3) list **)

  let map2_alt f m m' =
    let m0 = combine m m' in
    let m1 = map (fun p -> f (fst p) (snd p)) m0 in
    fold_right_pair option_cons m1 []

  (** val at_least_one :
      'a1 option -> 'a2 option -> ('a1 option * 'a2 option) option **)

  let at_least_one o o' =
    match o with
    | Some _ -> Some (o, o')
    | None -> (match o' with
               | Some _ -> Some (o, o')
               | None -> None)

  (** val at_least_one_then_f :
      ('a1 option -> 'a2 option -> 'a3 option) -> 'a1 option -> 'a2 option ->
      'a3 option **)

  let at_least_one_then_f f o o' =
    match o with
    | Some _ -> f o o'
    | None -> (match o' with
               | Some _ -> f o o'
               | None -> None)
 end

module type Int =
 sig
  type t

  val i2z : t -> z

  val _0 : t

  val _1 : t

  val _2 : t

  val _3 : t

  val add : t -> t -> t

  val opp : t -> t

  val sub : t -> t -> t

  val mul : t -> t -> t

  val max : t -> t -> t

  val eqb : t -> t -> bool

  val ltb : t -> t -> bool

  val leb : t -> t -> bool

  val gt_le_dec : t -> t -> bool

  val ge_lt_dec : t -> t -> bool

  val eq_dec : t -> t -> bool
 end

module Z_as_Int =
 struct
  type t = z

  (** val _0 : z **)

  let _0 =
    Z0

  (** val _1 : z **)

  let _1 =
    Zpos XH

  (** val _2 : z **)

  let _2 =
    Zpos (XO XH)

  (** val _3 : z **)

  let _3 =
    Zpos (XI XH)

  (** val add : z -> z -> z **)

  let add =
    Z.add

  (** val opp : z -> z **)

  let opp =
    Z.opp

  (** val sub : z -> z -> z **)

  let sub =
    Z.sub

  (** val mul : z -> z -> z **)

  let mul =
    Z.mul

  (** val max : z -> z -> z **)

  let max =
    Z.max

  (** val eqb : z -> z -> bool **)

  let eqb =
    Z.eqb

  (** val ltb : z -> z -> bool **)

  let ltb =
    Z.ltb

  (** val leb : z -> z -> bool **)

  let leb =
    Z.leb

  (** val eq_dec : z -> z -> bool **)

  let eq_dec =
    Z.eq_dec

  (** val gt_le_dec : z -> z -> bool **)

  let gt_le_dec i j =
    let b = Z.ltb j i in if b then true else false

  (** val ge_lt_dec : z -> z -> bool **)

  let ge_lt_dec i j =
    let b = Z.ltb i j in if b then false else true

  (** val i2z : t -> z **)

  let i2z n =
    n
 end

module Coq_Raw =
 functor (I:Int) ->
 functor (X:OrderedType) ->
 struct
  type key = X.t

  type 'elt tree =
  | Leaf
  | Node of 'elt tree * key * 'elt * 'elt tree * I.t

  (** val tree_rect :
      'a2 -> ('a1 tree -> 'a2 -> key -> 'a1 -> 'a1 tree -> 'a2 -> I.t -> 'a2)
      -> 'a1 tree -> 'a2 **)

  let rec tree_rect f f0 = function
  | Leaf -> f
  | Node (t1, k, y, t2, t3) ->
    f0 t1 (tree_rect f f0 t1) k y t2 (tree_rect f f0 t2) t3

  (** val tree_rec :
      'a2 -> ('a1 tree -> 'a2 -> key -> 'a1 -> 'a1 tree -> 'a2 -> I.t -> 'a2)
      -> 'a1 tree -> 'a2 **)

  let rec tree_rec f f0 = function
  | Leaf -> f
  | Node (t1, k, y, t2, t3) ->
    f0 t1 (tree_rec f f0 t1) k y t2 (tree_rec f f0 t2) t3

  (** val height : 'a1 tree -> I.t **)

  let height = function
  | Leaf -> I._0
  | Node (_, _, _, _, h) -> h

  (** val cardinal : 'a1 tree -> int **)

  let rec cardinal = function
  | Leaf -> 0
  | Node (l, _, _, r, _) -> Stdlib.Int.succ ((+) (cardinal l) (cardinal r))

  (** val empty : 'a1 tree **)

  let empty =
    Leaf

  (** val is_empty : 'a1 tree -> bool **)

  let is_empty = function
  | Leaf -> true
  | Node (_, _, _, _, _) -> false

  (** val mem : X.t -> 'a1 tree -> bool **)

  let rec mem x = function
  | Leaf -> false
  | Node (l, y, _, r, _) ->
    (match X.compare x y with
     | LT -> mem x l
     | EQ -> true
     | GT -> mem x r)

  (** val find : X.t -> 'a1 tree -> 'a1 option **)

  let rec find x = function
  | Leaf -> None
  | Node (l, y, d, r, _) ->
    (match X.compare x y with
     | LT -> find x l
     | EQ -> Some d
     | GT -> find x r)

  (** val create : 'a1 tree -> key -> 'a1 -> 'a1 tree -> 'a1 tree **)

  let create l x e r =
    Node (l, x, e, r, (I.add (I.max (height l) (height r)) I._1))

  (** val assert_false : 'a1 tree -> key -> 'a1 -> 'a1 tree -> 'a1 tree **)

  let assert_false =
    create

  (** val bal : 'a1 tree -> key -> 'a1 -> 'a1 tree -> 'a1 tree **)

  let bal l x d r =
    let hl = height l in
    let hr = height r in
    if I.gt_le_dec hl (I.add hr I._2)
    then (match l with
          | Leaf -> assert_false l x d r
          | Node (ll, lx, ld, lr, _) ->
            if I.ge_lt_dec (height ll) (height lr)
            then create ll lx ld (create lr x d r)
            else (match lr with
                  | Leaf -> assert_false l x d r
                  | Node (lrl, lrx, lrd, lrr, _) ->
                    create (create ll lx ld lrl) lrx lrd (create lrr x d r)))
    else if I.gt_le_dec hr (I.add hl I._2)
         then (match r with
               | Leaf -> assert_false l x d r
               | Node (rl, rx, rd, rr, _) ->
                 if I.ge_lt_dec (height rr) (height rl)
                 then create (create l x d rl) rx rd rr
                 else (match rl with
                       | Leaf -> assert_false l x d r
                       | Node (rll, rlx, rld, rlr, _) ->
                         create (create l x d rll) rlx rld
                           (create rlr rx rd rr)))
         else create l x d r

  (** val add : key -> 'a1 -> 'a1 tree -> 'a1 tree **)

  let rec add x d = function
  | Leaf -> Node (Leaf, x, d, Leaf, I._1)
  | Node (l, y, d', r, h) ->
    (match X.compare x y with
     | LT -> bal (add x d l) y d' r
     | EQ -> Node (l, y, d, r, h)
     | GT -> bal l y d' (add x d r))

  (** val remove_min :
      'a1 tree -> key -> 'a1 -> 'a1 tree -> 'a1 tree * (key * 'a1) **)

  let rec remove_min l x d r =
    match l with
    | Leaf -> (r, (x, d))
    | Node (ll, lx, ld, lr, _) ->
      let (l', m) = remove_min ll lx ld lr in ((bal l' x d r), m)

  (** val merge : 'a1 tree -> 'a1 tree -> 'a1 tree **)

  let merge s1 s2 =
    match s1 with
    | Leaf -> s2
    | Node (_, _, _, _, _) ->
      (match s2 with
       | Leaf -> s1
       | Node (l2, x2, d2, r2, _) ->
         let (s2', p) = remove_min l2 x2 d2 r2 in
         let (x, d) = p in bal s1 x d s2')

  (** val remove : X.t -> 'a1 tree -> 'a1 tree **)

  let rec remove x = function
  | Leaf -> Leaf
  | Node (l, y, d, r, _) ->
    (match X.compare x y with
     | LT -> bal (remove x l) y d r
     | EQ -> merge l r
     | GT -> bal l y d (remove x r))

  (** val join : 'a1 tree -> key -> 'a1 -> 'a1 tree -> 'a1 tree **)

  let rec join l = match l with
  | Leaf -> add
  | Node (ll, lx, ld, lr, lh) ->
    (fun x d ->
      let rec join_aux r = match r with
      | Leaf -> add x d l
      | Node (rl, rx, rd, rr, rh) ->
        if I.gt_le_dec lh (I.add rh I._2)
        then bal ll lx ld (join lr x d r)
        else if I.gt_le_dec rh (I.add lh I._2)
             then bal (join_aux rl) rx rd rr
             else create l x d r
      in join_aux)

  type 'elt triple = { t_left : 'elt tree; t_opt : 'elt option;
                       t_right : 'elt tree }

  (** val t_left : 'a1 triple -> 'a1 tree **)

  let t_left t0 =
    t0.t_left

  (** val t_opt : 'a1 triple -> 'a1 option **)

  let t_opt t0 =
    t0.t_opt

  (** val t_right : 'a1 triple -> 'a1 tree **)

  let t_right t0 =
    t0.t_right

  (** val split : X.t -> 'a1 tree -> 'a1 triple **)

  let rec split x = function
  | Leaf -> { t_left = Leaf; t_opt = None; t_right = Leaf }
  | Node (l, y, d, r, _) ->
    (match X.compare x y with
     | LT ->
       let { t_left = ll; t_opt = o; t_right = rl } = split x l in
       { t_left = ll; t_opt = o; t_right = (join rl y d r) }
     | EQ -> { t_left = l; t_opt = (Some d); t_right = r }
     | GT ->
       let { t_left = rl; t_opt = o; t_right = rr } = split x r in
       { t_left = (join l y d rl); t_opt = o; t_right = rr })

  (** val concat : 'a1 tree -> 'a1 tree -> 'a1 tree **)

  let concat m1 m2 =
    match m1 with
    | Leaf -> m2
    | Node (_, _, _, _, _) ->
      (match m2 with
       | Leaf -> m1
       | Node (l2, x2, d2, r2, _) ->
         let (m2', xd) = remove_min l2 x2 d2 r2 in
         join m1 (fst xd) (snd xd) m2')

  (** val elements_aux : (key * 'a1) list -> 'a1 tree -> (key * 'a1) list **)

  let rec elements_aux acc = function
  | Leaf -> acc
  | Node (l, x, d, r, _) -> elements_aux ((x, d) :: (elements_aux acc r)) l

  (** val elements : 'a1 tree -> (key * 'a1) list **)

  let elements m =
    elements_aux [] m

  (** val fold : (key -> 'a1 -> 'a2 -> 'a2) -> 'a1 tree -> 'a2 -> 'a2 **)

  let rec fold f m a =
    match m with
    | Leaf -> a
    | Node (l, x, d, r, _) -> fold f r (f x d (fold f l a))

  type 'elt enumeration =
  | End
  | More of key * 'elt * 'elt tree * 'elt enumeration

  (** val enumeration_rect :
      'a2 -> (key -> 'a1 -> 'a1 tree -> 'a1 enumeration -> 'a2 -> 'a2) -> 'a1
      enumeration -> 'a2 **)

  let rec enumeration_rect f f0 = function
  | End -> f
  | More (k, e0, t0, e1) -> f0 k e0 t0 e1 (enumeration_rect f f0 e1)

  (** val enumeration_rec :
      'a2 -> (key -> 'a1 -> 'a1 tree -> 'a1 enumeration -> 'a2 -> 'a2) -> 'a1
      enumeration -> 'a2 **)

  let rec enumeration_rec f f0 = function
  | End -> f
  | More (k, e0, t0, e1) -> f0 k e0 t0 e1 (enumeration_rec f f0 e1)

  (** val cons : 'a1 tree -> 'a1 enumeration -> 'a1 enumeration **)

  let rec cons m e =
    match m with
    | Leaf -> e
    | Node (l, x, d, r, _) -> cons l (More (x, d, r, e))

  (** val equal_more :
      ('a1 -> 'a1 -> bool) -> X.t -> 'a1 -> ('a1 enumeration -> bool) -> 'a1
      enumeration -> bool **)

  let equal_more cmp x1 d1 cont = function
  | End -> false
  | More (x2, d2, r2, e3) ->
    (match X.compare x1 x2 with
     | EQ -> if cmp d1 d2 then cont (cons r2 e3) else false
     | _ -> false)

  (** val equal_cont :
      ('a1 -> 'a1 -> bool) -> 'a1 tree -> ('a1 enumeration -> bool) -> 'a1
      enumeration -> bool **)

  let rec equal_cont cmp m1 cont e2 =
    match m1 with
    | Leaf -> cont e2
    | Node (l1, x1, d1, r1, _) ->
      equal_cont cmp l1 (equal_more cmp x1 d1 (equal_cont cmp r1 cont)) e2

  (** val equal_end : 'a1 enumeration -> bool **)

  let equal_end = function
  | End -> true
  | More (_, _, _, _) -> false

  (** val equal : ('a1 -> 'a1 -> bool) -> 'a1 tree -> 'a1 tree -> bool **)

  let equal cmp m1 m2 =
    equal_cont cmp m1 equal_end (cons m2 End)

  (** val map : ('a1 -> 'a2) -> 'a1 tree -> 'a2 tree **)

  let rec map f = function
  | Leaf -> Leaf
  | Node (l, x, d, r, h) -> Node ((map f l), x, (f d), (map f r), h)

  (** val mapi : (key -> 'a1 -> 'a2) -> 'a1 tree -> 'a2 tree **)

  let rec mapi f = function
  | Leaf -> Leaf
  | Node (l, x, d, r, h) -> Node ((mapi f l), x, (f x d), (mapi f r), h)

  (** val map_option : (key -> 'a1 -> 'a2 option) -> 'a1 tree -> 'a2 tree **)

  let rec map_option f = function
  | Leaf -> Leaf
  | Node (l, x, d, r, _) ->
    (match f x d with
     | Some d' -> join (map_option f l) x d' (map_option f r)
     | None -> concat (map_option f l) (map_option f r))

  (** val map2_opt :
      (key -> 'a1 -> 'a2 option -> 'a3 option) -> ('a1 tree -> 'a3 tree) ->
      ('a2 tree -> 'a3 tree) -> 'a1 tree -> 'a2 tree -> 'a3 tree **)

  let rec map2_opt f mapl mapr m1 m2 =
    match m1 with
    | Leaf -> mapr m2
    | Node (l1, x1, d1, r1, _) ->
      (match m2 with
       | Leaf -> mapl m1
       | Node (_, _, _, _, _) ->
         let { t_left = l2'; t_opt = o2; t_right = r2' } = split x1 m2 in
         (match f x1 d1 o2 with
          | Some e ->
            join (map2_opt f mapl mapr l1 l2') x1 e
              (map2_opt f mapl mapr r1 r2')
          | None ->
            concat (map2_opt f mapl mapr l1 l2') (map2_opt f mapl mapr r1 r2')))

  (** val map2 :
      ('a1 option -> 'a2 option -> 'a3 option) -> 'a1 tree -> 'a2 tree -> 'a3
      tree **)

  let map2 f =
    map2_opt (fun _ d o -> f (Some d) o)
      (map_option (fun _ d -> f (Some d) None))
      (map_option (fun _ d' -> f None (Some d')))

  module Proofs =
   struct
    module MX = OrderedTypeFacts(X)

    module PX = KeyOrderedType(X)

    module L = Raw(X)

    type 'elt coq_R_mem =
    | R_mem_0 of 'elt tree
    | R_mem_1 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t * 
       bool * 'elt coq_R_mem
    | R_mem_2 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
    | R_mem_3 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t * 
       bool * 'elt coq_R_mem

    (** val coq_R_mem_rect :
        X.t -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> bool -> 'a1 coq_R_mem -> 'a2
        -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t ->
        __ -> __ -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1
        tree -> I.t -> __ -> __ -> __ -> bool -> 'a1 coq_R_mem -> 'a2 -> 'a2)
        -> 'a1 tree -> bool -> 'a1 coq_R_mem -> 'a2 **)

    let rec coq_R_mem_rect x f f0 f1 f2 _ _ = function
    | R_mem_0 m -> f m __
    | R_mem_1 (m, l, y, _x, r0, _x0, _res, r1) ->
      f0 m l y _x r0 _x0 __ __ __ _res r1
        (coq_R_mem_rect x f f0 f1 f2 l _res r1)
    | R_mem_2 (m, l, y, _x, r0, _x0) -> f1 m l y _x r0 _x0 __ __ __
    | R_mem_3 (m, l, y, _x, r0, _x0, _res, r1) ->
      f2 m l y _x r0 _x0 __ __ __ _res r1
        (coq_R_mem_rect x f f0 f1 f2 r0 _res r1)

    (** val coq_R_mem_rec :
        X.t -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> bool -> 'a1 coq_R_mem -> 'a2
        -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t ->
        __ -> __ -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1
        tree -> I.t -> __ -> __ -> __ -> bool -> 'a1 coq_R_mem -> 'a2 -> 'a2)
        -> 'a1 tree -> bool -> 'a1 coq_R_mem -> 'a2 **)

    let rec coq_R_mem_rec x f f0 f1 f2 _ _ = function
    | R_mem_0 m -> f m __
    | R_mem_1 (m, l, y, _x, r0, _x0, _res, r1) ->
      f0 m l y _x r0 _x0 __ __ __ _res r1
        (coq_R_mem_rec x f f0 f1 f2 l _res r1)
    | R_mem_2 (m, l, y, _x, r0, _x0) -> f1 m l y _x r0 _x0 __ __ __
    | R_mem_3 (m, l, y, _x, r0, _x0, _res, r1) ->
      f2 m l y _x r0 _x0 __ __ __ _res r1
        (coq_R_mem_rec x f f0 f1 f2 r0 _res r1)

    type 'elt coq_R_find =
    | R_find_0 of 'elt tree
    | R_find_1 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
       * 'elt option * 'elt coq_R_find
    | R_find_2 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
    | R_find_3 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
       * 'elt option * 'elt coq_R_find

    (** val coq_R_find_rect :
        X.t -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 option -> 'a1 coq_R_find
        -> 'a2 -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree ->
        I.t -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 option -> 'a1 coq_R_find
        -> 'a2 -> 'a2) -> 'a1 tree -> 'a1 option -> 'a1 coq_R_find -> 'a2 **)

    let rec coq_R_find_rect x f f0 f1 f2 _ _ = function
    | R_find_0 m -> f m __
    | R_find_1 (m, l, y, d, r0, _x, _res, r1) ->
      f0 m l y d r0 _x __ __ __ _res r1
        (coq_R_find_rect x f f0 f1 f2 l _res r1)
    | R_find_2 (m, l, y, d, r0, _x) -> f1 m l y d r0 _x __ __ __
    | R_find_3 (m, l, y, d, r0, _x, _res, r1) ->
      f2 m l y d r0 _x __ __ __ _res r1
        (coq_R_find_rect x f f0 f1 f2 r0 _res r1)

    (** val coq_R_find_rec :
        X.t -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 option -> 'a1 coq_R_find
        -> 'a2 -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree ->
        I.t -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 option -> 'a1 coq_R_find
        -> 'a2 -> 'a2) -> 'a1 tree -> 'a1 option -> 'a1 coq_R_find -> 'a2 **)

    let rec coq_R_find_rec x f f0 f1 f2 _ _ = function
    | R_find_0 m -> f m __
    | R_find_1 (m, l, y, d, r0, _x, _res, r1) ->
      f0 m l y d r0 _x __ __ __ _res r1
        (coq_R_find_rec x f f0 f1 f2 l _res r1)
    | R_find_2 (m, l, y, d, r0, _x) -> f1 m l y d r0 _x __ __ __
    | R_find_3 (m, l, y, d, r0, _x, _res, r1) ->
      f2 m l y d r0 _x __ __ __ _res r1
        (coq_R_find_rec x f f0 f1 f2 r0 _res r1)

    type 'elt coq_R_bal =
    | R_bal_0 of 'elt tree * key * 'elt * 'elt tree
    | R_bal_1 of 'elt tree * key * 'elt * 'elt tree * 'elt tree * key * 
       'elt * 'elt tree * I.t
    | R_bal_2 of 'elt tree * key * 'elt * 'elt tree * 'elt tree * key * 
       'elt * 'elt tree * I.t
    | R_bal_3 of 'elt tree * key * 'elt * 'elt tree * 'elt tree * key * 
       'elt * 'elt tree * I.t * 'elt tree * key * 'elt * 'elt tree * 
       I.t
    | R_bal_4 of 'elt tree * key * 'elt * 'elt tree
    | R_bal_5 of 'elt tree * key * 'elt * 'elt tree * 'elt tree * key * 
       'elt * 'elt tree * I.t
    | R_bal_6 of 'elt tree * key * 'elt * 'elt tree * 'elt tree * key * 
       'elt * 'elt tree * I.t
    | R_bal_7 of 'elt tree * key * 'elt * 'elt tree * 'elt tree * key * 
       'elt * 'elt tree * I.t * 'elt tree * key * 'elt * 'elt tree * 
       I.t
    | R_bal_8 of 'elt tree * key * 'elt * 'elt tree

    (** val coq_R_bal_rect :
        ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> __ -> 'a2) -> ('a1
        tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> key ->
        'a1 -> 'a1 tree -> __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree ->
        I.t -> __ -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> key -> 'a1 -> 'a1
        tree -> __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ ->
        'a2) -> ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> __ -> __
        -> __ -> 'a2) -> ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ ->
        __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ ->
        __ -> 'a2) -> ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> __
        -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> __
        -> __ -> 'a2) -> ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ ->
        __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ ->
        __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a2) -> ('a1
        tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> __ -> __ -> 'a2) -> 'a1
        tree -> key -> 'a1 -> 'a1 tree -> 'a1 tree -> 'a1 coq_R_bal -> 'a2 **)

    let coq_R_bal_rect f f0 f1 f2 f3 f4 f5 f6 f7 _ _ _ _ _ = function
    | R_bal_0 (l, x, d, r) -> f l x d r __ __ __
    | R_bal_1 (l, x, d, r, x0, x1, x2, x3, x4) ->
      f0 l x d r __ __ x0 x1 x2 x3 x4 __ __ __
    | R_bal_2 (l, x, d, r, x0, x1, x2, x3, x4) ->
      f1 l x d r __ __ x0 x1 x2 x3 x4 __ __ __ __
    | R_bal_3 (l, x, d, r, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9) ->
      f2 l x d r __ __ x0 x1 x2 x3 x4 __ __ __ x5 x6 x7 x8 x9 __
    | R_bal_4 (l, x, d, r) -> f3 l x d r __ __ __ __ __
    | R_bal_5 (l, x, d, r, x0, x1, x2, x3, x4) ->
      f4 l x d r __ __ __ __ x0 x1 x2 x3 x4 __ __ __
    | R_bal_6 (l, x, d, r, x0, x1, x2, x3, x4) ->
      f5 l x d r __ __ __ __ x0 x1 x2 x3 x4 __ __ __ __
    | R_bal_7 (l, x, d, r, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9) ->
      f6 l x d r __ __ __ __ x0 x1 x2 x3 x4 __ __ __ x5 x6 x7 x8 x9 __
    | R_bal_8 (l, x, d, r) -> f7 l x d r __ __ __ __

    (** val coq_R_bal_rec :
        ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> __ -> 'a2) -> ('a1
        tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> key ->
        'a1 -> 'a1 tree -> __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree ->
        I.t -> __ -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> key -> 'a1 -> 'a1
        tree -> __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ ->
        'a2) -> ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> __ -> __
        -> __ -> 'a2) -> ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ ->
        __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ ->
        __ -> 'a2) -> ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> __
        -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> __
        -> __ -> 'a2) -> ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> __ ->
        __ -> __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ ->
        __ -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a2) -> ('a1
        tree -> key -> 'a1 -> 'a1 tree -> __ -> __ -> __ -> __ -> 'a2) -> 'a1
        tree -> key -> 'a1 -> 'a1 tree -> 'a1 tree -> 'a1 coq_R_bal -> 'a2 **)

    let coq_R_bal_rec f f0 f1 f2 f3 f4 f5 f6 f7 _ _ _ _ _ = function
    | R_bal_0 (l, x, d, r) -> f l x d r __ __ __
    | R_bal_1 (l, x, d, r, x0, x1, x2, x3, x4) ->
      f0 l x d r __ __ x0 x1 x2 x3 x4 __ __ __
    | R_bal_2 (l, x, d, r, x0, x1, x2, x3, x4) ->
      f1 l x d r __ __ x0 x1 x2 x3 x4 __ __ __ __
    | R_bal_3 (l, x, d, r, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9) ->
      f2 l x d r __ __ x0 x1 x2 x3 x4 __ __ __ x5 x6 x7 x8 x9 __
    | R_bal_4 (l, x, d, r) -> f3 l x d r __ __ __ __ __
    | R_bal_5 (l, x, d, r, x0, x1, x2, x3, x4) ->
      f4 l x d r __ __ __ __ x0 x1 x2 x3 x4 __ __ __
    | R_bal_6 (l, x, d, r, x0, x1, x2, x3, x4) ->
      f5 l x d r __ __ __ __ x0 x1 x2 x3 x4 __ __ __ __
    | R_bal_7 (l, x, d, r, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9) ->
      f6 l x d r __ __ __ __ x0 x1 x2 x3 x4 __ __ __ x5 x6 x7 x8 x9 __
    | R_bal_8 (l, x, d, r) -> f7 l x d r __ __ __ __

    type 'elt coq_R_add =
    | R_add_0 of 'elt tree
    | R_add_1 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
       * 'elt tree * 'elt coq_R_add
    | R_add_2 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
    | R_add_3 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
       * 'elt tree * 'elt coq_R_add

    (** val coq_R_add_rect :
        key -> 'a1 -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key
        -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 tree -> 'a1
        coq_R_add -> 'a2 -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 ->
        'a1 tree -> I.t -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> 'a1 tree ->
        key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 tree -> 'a1
        coq_R_add -> 'a2 -> 'a2) -> 'a1 tree -> 'a1 tree -> 'a1 coq_R_add ->
        'a2 **)

    let rec coq_R_add_rect x d f f0 f1 f2 _ _ = function
    | R_add_0 m -> f m __
    | R_add_1 (m, l, y, d', r0, h, _res, r1) ->
      f0 m l y d' r0 h __ __ __ _res r1
        (coq_R_add_rect x d f f0 f1 f2 l _res r1)
    | R_add_2 (m, l, y, d', r0, h) -> f1 m l y d' r0 h __ __ __
    | R_add_3 (m, l, y, d', r0, h, _res, r1) ->
      f2 m l y d' r0 h __ __ __ _res r1
        (coq_R_add_rect x d f f0 f1 f2 r0 _res r1)

    (** val coq_R_add_rec :
        key -> 'a1 -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key
        -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 tree -> 'a1
        coq_R_add -> 'a2 -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 ->
        'a1 tree -> I.t -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> 'a1 tree ->
        key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 tree -> 'a1
        coq_R_add -> 'a2 -> 'a2) -> 'a1 tree -> 'a1 tree -> 'a1 coq_R_add ->
        'a2 **)

    let rec coq_R_add_rec x d f f0 f1 f2 _ _ = function
    | R_add_0 m -> f m __
    | R_add_1 (m, l, y, d', r0, h, _res, r1) ->
      f0 m l y d' r0 h __ __ __ _res r1
        (coq_R_add_rec x d f f0 f1 f2 l _res r1)
    | R_add_2 (m, l, y, d', r0, h) -> f1 m l y d' r0 h __ __ __
    | R_add_3 (m, l, y, d', r0, h, _res, r1) ->
      f2 m l y d' r0 h __ __ __ _res r1
        (coq_R_add_rec x d f f0 f1 f2 r0 _res r1)

    type 'elt coq_R_remove_min =
    | R_remove_min_0 of 'elt tree * key * 'elt * 'elt tree
    | R_remove_min_1 of 'elt tree * key * 'elt * 'elt tree * 'elt tree * 
       key * 'elt * 'elt tree * I.t * ('elt tree * (key * 'elt))
       * 'elt coq_R_remove_min * 'elt tree * (key * 'elt)

    (** val coq_R_remove_min_rect :
        ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> 'a2) -> ('a1 tree -> key
        -> 'a1 -> 'a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> ('a1 tree * (key * 'a1)) -> 'a1 coq_R_remove_min -> 'a2 -> 'a1
        tree -> (key * 'a1) -> __ -> 'a2) -> 'a1 tree -> key -> 'a1 -> 'a1
        tree -> ('a1 tree * (key * 'a1)) -> 'a1 coq_R_remove_min -> 'a2 **)

    let rec coq_R_remove_min_rect f f0 _ _ _ _ _ = function
    | R_remove_min_0 (l, x, d, r) -> f l x d r __
    | R_remove_min_1 (l, x, d, r, ll, lx, ld, lr, _x, _res, r1, l', m) ->
      f0 l x d r ll lx ld lr _x __ _res r1
        (coq_R_remove_min_rect f f0 ll lx ld lr _res r1) l' m __

    (** val coq_R_remove_min_rec :
        ('a1 tree -> key -> 'a1 -> 'a1 tree -> __ -> 'a2) -> ('a1 tree -> key
        -> 'a1 -> 'a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> ('a1 tree * (key * 'a1)) -> 'a1 coq_R_remove_min -> 'a2 -> 'a1
        tree -> (key * 'a1) -> __ -> 'a2) -> 'a1 tree -> key -> 'a1 -> 'a1
        tree -> ('a1 tree * (key * 'a1)) -> 'a1 coq_R_remove_min -> 'a2 **)

    let rec coq_R_remove_min_rec f f0 _ _ _ _ _ = function
    | R_remove_min_0 (l, x, d, r) -> f l x d r __
    | R_remove_min_1 (l, x, d, r, ll, lx, ld, lr, _x, _res, r1, l', m) ->
      f0 l x d r ll lx ld lr _x __ _res r1
        (coq_R_remove_min_rec f f0 ll lx ld lr _res r1) l' m __

    type 'elt coq_R_merge =
    | R_merge_0 of 'elt tree * 'elt tree
    | R_merge_1 of 'elt tree * 'elt tree * 'elt tree * key * 'elt * 'elt tree
       * I.t
    | R_merge_2 of 'elt tree * 'elt tree * 'elt tree * key * 'elt * 'elt tree
       * I.t * 'elt tree * key * 'elt * 'elt tree * I.t * 'elt tree
       * (key * 'elt) * key * 'elt

    (** val coq_R_merge_rect :
        ('a1 tree -> 'a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> 'a1
        tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> 'a2) -> ('a1
        tree -> 'a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a1 tree ->
        (key * 'a1) -> __ -> key -> 'a1 -> __ -> 'a2) -> 'a1 tree -> 'a1 tree
        -> 'a1 tree -> 'a1 coq_R_merge -> 'a2 **)

    let coq_R_merge_rect f f0 f1 _ _ _ = function
    | R_merge_0 (s1, s2) -> f s1 s2 __
    | R_merge_1 (s1, s2, _x, _x0, _x1, _x2, _x3) ->
      f0 s1 s2 _x _x0 _x1 _x2 _x3 __ __
    | R_merge_2 (s1, s2, _x, _x0, _x1, _x2, _x3, l2, x2, d2, r2, _x4, s2', p,
                 x, d) ->
      f1 s1 s2 _x _x0 _x1 _x2 _x3 __ l2 x2 d2 r2 _x4 __ s2' p __ x d __

    (** val coq_R_merge_rec :
        ('a1 tree -> 'a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> 'a1
        tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> 'a2) -> ('a1
        tree -> 'a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a1 tree ->
        (key * 'a1) -> __ -> key -> 'a1 -> __ -> 'a2) -> 'a1 tree -> 'a1 tree
        -> 'a1 tree -> 'a1 coq_R_merge -> 'a2 **)

    let coq_R_merge_rec f f0 f1 _ _ _ = function
    | R_merge_0 (s1, s2) -> f s1 s2 __
    | R_merge_1 (s1, s2, _x, _x0, _x1, _x2, _x3) ->
      f0 s1 s2 _x _x0 _x1 _x2 _x3 __ __
    | R_merge_2 (s1, s2, _x, _x0, _x1, _x2, _x3, l2, x2, d2, r2, _x4, s2', p,
                 x, d) ->
      f1 s1 s2 _x _x0 _x1 _x2 _x3 __ l2 x2 d2 r2 _x4 __ s2' p __ x d __

    type 'elt coq_R_remove =
    | R_remove_0 of 'elt tree
    | R_remove_1 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * 
       I.t * 'elt tree * 'elt coq_R_remove
    | R_remove_2 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
    | R_remove_3 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * 
       I.t * 'elt tree * 'elt coq_R_remove

    (** val coq_R_remove_rect :
        X.t -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 tree -> 'a1 coq_R_remove
        -> 'a2 -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree ->
        I.t -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 tree -> 'a1 coq_R_remove
        -> 'a2 -> 'a2) -> 'a1 tree -> 'a1 tree -> 'a1 coq_R_remove -> 'a2 **)

    let rec coq_R_remove_rect x f f0 f1 f2 _ _ = function
    | R_remove_0 m -> f m __
    | R_remove_1 (m, l, y, d, r0, _x, _res, r1) ->
      f0 m l y d r0 _x __ __ __ _res r1
        (coq_R_remove_rect x f f0 f1 f2 l _res r1)
    | R_remove_2 (m, l, y, d, r0, _x) -> f1 m l y d r0 _x __ __ __
    | R_remove_3 (m, l, y, d, r0, _x, _res, r1) ->
      f2 m l y d r0 _x __ __ __ _res r1
        (coq_R_remove_rect x f f0 f1 f2 r0 _res r1)

    (** val coq_R_remove_rec :
        X.t -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 tree -> 'a1 coq_R_remove
        -> 'a2 -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree ->
        I.t -> __ -> __ -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 tree -> 'a1 coq_R_remove
        -> 'a2 -> 'a2) -> 'a1 tree -> 'a1 tree -> 'a1 coq_R_remove -> 'a2 **)

    let rec coq_R_remove_rec x f f0 f1 f2 _ _ = function
    | R_remove_0 m -> f m __
    | R_remove_1 (m, l, y, d, r0, _x, _res, r1) ->
      f0 m l y d r0 _x __ __ __ _res r1
        (coq_R_remove_rec x f f0 f1 f2 l _res r1)
    | R_remove_2 (m, l, y, d, r0, _x) -> f1 m l y d r0 _x __ __ __
    | R_remove_3 (m, l, y, d, r0, _x, _res, r1) ->
      f2 m l y d r0 _x __ __ __ _res r1
        (coq_R_remove_rec x f f0 f1 f2 r0 _res r1)

    type 'elt coq_R_concat =
    | R_concat_0 of 'elt tree * 'elt tree
    | R_concat_1 of 'elt tree * 'elt tree * 'elt tree * key * 'elt
       * 'elt tree * I.t
    | R_concat_2 of 'elt tree * 'elt tree * 'elt tree * key * 'elt
       * 'elt tree * I.t * 'elt tree * key * 'elt * 'elt tree * I.t
       * 'elt tree * (key * 'elt)

    (** val coq_R_concat_rect :
        ('a1 tree -> 'a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> 'a1
        tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> 'a2) -> ('a1
        tree -> 'a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a1 tree ->
        (key * 'a1) -> __ -> 'a2) -> 'a1 tree -> 'a1 tree -> 'a1 tree -> 'a1
        coq_R_concat -> 'a2 **)

    let coq_R_concat_rect f f0 f1 _ _ _ = function
    | R_concat_0 (m1, m2) -> f m1 m2 __
    | R_concat_1 (m1, m2, _x, _x0, _x1, _x2, _x3) ->
      f0 m1 m2 _x _x0 _x1 _x2 _x3 __ __
    | R_concat_2 (m1, m2, _x, _x0, _x1, _x2, _x3, l2, x2, d2, r2, _x4, m2', xd) ->
      f1 m1 m2 _x _x0 _x1 _x2 _x3 __ l2 x2 d2 r2 _x4 __ m2' xd __

    (** val coq_R_concat_rec :
        ('a1 tree -> 'a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> 'a1
        tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> 'a2) -> ('a1
        tree -> 'a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a1 tree ->
        (key * 'a1) -> __ -> 'a2) -> 'a1 tree -> 'a1 tree -> 'a1 tree -> 'a1
        coq_R_concat -> 'a2 **)

    let coq_R_concat_rec f f0 f1 _ _ _ = function
    | R_concat_0 (m1, m2) -> f m1 m2 __
    | R_concat_1 (m1, m2, _x, _x0, _x1, _x2, _x3) ->
      f0 m1 m2 _x _x0 _x1 _x2 _x3 __ __
    | R_concat_2 (m1, m2, _x, _x0, _x1, _x2, _x3, l2, x2, d2, r2, _x4, m2', xd) ->
      f1 m1 m2 _x _x0 _x1 _x2 _x3 __ l2 x2 d2 r2 _x4 __ m2' xd __

    type 'elt coq_R_split =
    | R_split_0 of 'elt tree
    | R_split_1 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
       * 'elt triple * 'elt coq_R_split * 'elt tree * 'elt option * 'elt tree
    | R_split_2 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
    | R_split_3 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * I.t
       * 'elt triple * 'elt coq_R_split * 'elt tree * 'elt option * 'elt tree

    (** val coq_R_split_rect :
        X.t -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 triple -> 'a1 coq_R_split
        -> 'a2 -> 'a1 tree -> 'a1 option -> 'a1 tree -> __ -> 'a2) -> ('a1
        tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> __
        -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t ->
        __ -> __ -> __ -> 'a1 triple -> 'a1 coq_R_split -> 'a2 -> 'a1 tree ->
        'a1 option -> 'a1 tree -> __ -> 'a2) -> 'a1 tree -> 'a1 triple -> 'a1
        coq_R_split -> 'a2 **)

    let rec coq_R_split_rect x f f0 f1 f2 _ _ = function
    | R_split_0 m -> f m __
    | R_split_1 (m, l, y, d, r0, _x, _res, r1, ll, o, rl) ->
      f0 m l y d r0 _x __ __ __ _res r1
        (coq_R_split_rect x f f0 f1 f2 l _res r1) ll o rl __
    | R_split_2 (m, l, y, d, r0, _x) -> f1 m l y d r0 _x __ __ __
    | R_split_3 (m, l, y, d, r0, _x, _res, r1, rl, o, rr) ->
      f2 m l y d r0 _x __ __ __ _res r1
        (coq_R_split_rect x f f0 f1 f2 r0 _res r1) rl o rr __

    (** val coq_R_split_rec :
        X.t -> ('a1 tree -> __ -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1
        -> 'a1 tree -> I.t -> __ -> __ -> __ -> 'a1 triple -> 'a1 coq_R_split
        -> 'a2 -> 'a1 tree -> 'a1 option -> 'a1 tree -> __ -> 'a2) -> ('a1
        tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> __ -> __
        -> 'a2) -> ('a1 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t ->
        __ -> __ -> __ -> 'a1 triple -> 'a1 coq_R_split -> 'a2 -> 'a1 tree ->
        'a1 option -> 'a1 tree -> __ -> 'a2) -> 'a1 tree -> 'a1 triple -> 'a1
        coq_R_split -> 'a2 **)

    let rec coq_R_split_rec x f f0 f1 f2 _ _ = function
    | R_split_0 m -> f m __
    | R_split_1 (m, l, y, d, r0, _x, _res, r1, ll, o, rl) ->
      f0 m l y d r0 _x __ __ __ _res r1
        (coq_R_split_rec x f f0 f1 f2 l _res r1) ll o rl __
    | R_split_2 (m, l, y, d, r0, _x) -> f1 m l y d r0 _x __ __ __
    | R_split_3 (m, l, y, d, r0, _x, _res, r1, rl, o, rr) ->
      f2 m l y d r0 _x __ __ __ _res r1
        (coq_R_split_rec x f f0 f1 f2 r0 _res r1) rl o rr __

    type ('elt, 'x) coq_R_map_option =
    | R_map_option_0 of 'elt tree
    | R_map_option_1 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * 
       I.t * 'x * 'x tree * ('elt, 'x) coq_R_map_option * 'x tree
       * ('elt, 'x) coq_R_map_option
    | R_map_option_2 of 'elt tree * 'elt tree * key * 'elt * 'elt tree * 
       I.t * 'x tree * ('elt, 'x) coq_R_map_option * 'x tree
       * ('elt, 'x) coq_R_map_option

    (** val coq_R_map_option_rect :
        (key -> 'a1 -> 'a2 option) -> ('a1 tree -> __ -> 'a3) -> ('a1 tree ->
        'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a2 -> __ -> 'a2
        tree -> ('a1, 'a2) coq_R_map_option -> 'a3 -> 'a2 tree -> ('a1, 'a2)
        coq_R_map_option -> 'a3 -> 'a3) -> ('a1 tree -> 'a1 tree -> key ->
        'a1 -> 'a1 tree -> I.t -> __ -> __ -> 'a2 tree -> ('a1, 'a2)
        coq_R_map_option -> 'a3 -> 'a2 tree -> ('a1, 'a2) coq_R_map_option ->
        'a3 -> 'a3) -> 'a1 tree -> 'a2 tree -> ('a1, 'a2) coq_R_map_option ->
        'a3 **)

    let rec coq_R_map_option_rect f f0 f1 f2 _ _ = function
    | R_map_option_0 m -> f0 m __
    | R_map_option_1 (m, l, x, d, r0, _x, d', _res0, r1, _res, r2) ->
      f1 m l x d r0 _x __ d' __ _res0 r1
        (coq_R_map_option_rect f f0 f1 f2 l _res0 r1) _res r2
        (coq_R_map_option_rect f f0 f1 f2 r0 _res r2)
    | R_map_option_2 (m, l, x, d, r0, _x, _res0, r1, _res, r2) ->
      f2 m l x d r0 _x __ __ _res0 r1
        (coq_R_map_option_rect f f0 f1 f2 l _res0 r1) _res r2
        (coq_R_map_option_rect f f0 f1 f2 r0 _res r2)

    (** val coq_R_map_option_rec :
        (key -> 'a1 -> 'a2 option) -> ('a1 tree -> __ -> 'a3) -> ('a1 tree ->
        'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a2 -> __ -> 'a2
        tree -> ('a1, 'a2) coq_R_map_option -> 'a3 -> 'a2 tree -> ('a1, 'a2)
        coq_R_map_option -> 'a3 -> 'a3) -> ('a1 tree -> 'a1 tree -> key ->
        'a1 -> 'a1 tree -> I.t -> __ -> __ -> 'a2 tree -> ('a1, 'a2)
        coq_R_map_option -> 'a3 -> 'a2 tree -> ('a1, 'a2) coq_R_map_option ->
        'a3 -> 'a3) -> 'a1 tree -> 'a2 tree -> ('a1, 'a2) coq_R_map_option ->
        'a3 **)

    let rec coq_R_map_option_rec f f0 f1 f2 _ _ = function
    | R_map_option_0 m -> f0 m __
    | R_map_option_1 (m, l, x, d, r0, _x, d', _res0, r1, _res, r2) ->
      f1 m l x d r0 _x __ d' __ _res0 r1
        (coq_R_map_option_rec f f0 f1 f2 l _res0 r1) _res r2
        (coq_R_map_option_rec f f0 f1 f2 r0 _res r2)
    | R_map_option_2 (m, l, x, d, r0, _x, _res0, r1, _res, r2) ->
      f2 m l x d r0 _x __ __ _res0 r1
        (coq_R_map_option_rec f f0 f1 f2 l _res0 r1) _res r2
        (coq_R_map_option_rec f f0 f1 f2 r0 _res r2)

    type ('elt, 'x0, 'x) coq_R_map2_opt =
    | R_map2_opt_0 of 'elt tree * 'x0 tree
    | R_map2_opt_1 of 'elt tree * 'x0 tree * 'elt tree * key * 'elt
       * 'elt tree * I.t
    | R_map2_opt_2 of 'elt tree * 'x0 tree * 'elt tree * key * 'elt
       * 'elt tree * I.t * 'x0 tree * key * 'x0 * 'x0 tree * I.t * 'x0 tree
       * 'x0 option * 'x0 tree * 'x * 'x tree
       * ('elt, 'x0, 'x) coq_R_map2_opt * 'x tree
       * ('elt, 'x0, 'x) coq_R_map2_opt
    | R_map2_opt_3 of 'elt tree * 'x0 tree * 'elt tree * key * 'elt
       * 'elt tree * I.t * 'x0 tree * key * 'x0 * 'x0 tree * I.t * 'x0 tree
       * 'x0 option * 'x0 tree * 'x tree * ('elt, 'x0, 'x) coq_R_map2_opt
       * 'x tree * ('elt, 'x0, 'x) coq_R_map2_opt

    (** val coq_R_map2_opt_rect :
        (key -> 'a1 -> 'a2 option -> 'a3 option) -> ('a1 tree -> 'a3 tree) ->
        ('a2 tree -> 'a3 tree) -> ('a1 tree -> 'a2 tree -> __ -> 'a4) -> ('a1
        tree -> 'a2 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> __ -> 'a4) -> ('a1 tree -> 'a2 tree -> 'a1 tree -> key -> 'a1 ->
        'a1 tree -> I.t -> __ -> 'a2 tree -> key -> 'a2 -> 'a2 tree -> I.t ->
        __ -> 'a2 tree -> 'a2 option -> 'a2 tree -> __ -> 'a3 -> __ -> 'a3
        tree -> ('a1, 'a2, 'a3) coq_R_map2_opt -> 'a4 -> 'a3 tree -> ('a1,
        'a2, 'a3) coq_R_map2_opt -> 'a4 -> 'a4) -> ('a1 tree -> 'a2 tree ->
        'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a2 tree -> key ->
        'a2 -> 'a2 tree -> I.t -> __ -> 'a2 tree -> 'a2 option -> 'a2 tree ->
        __ -> __ -> 'a3 tree -> ('a1, 'a2, 'a3) coq_R_map2_opt -> 'a4 -> 'a3
        tree -> ('a1, 'a2, 'a3) coq_R_map2_opt -> 'a4 -> 'a4) -> 'a1 tree ->
        'a2 tree -> 'a3 tree -> ('a1, 'a2, 'a3) coq_R_map2_opt -> 'a4 **)

    let rec coq_R_map2_opt_rect f mapl mapr f0 f1 f2 f3 _ _ _ = function
    | R_map2_opt_0 (m1, m2) -> f0 m1 m2 __
    | R_map2_opt_1 (m1, m2, l1, x1, d1, r1, _x) ->
      f1 m1 m2 l1 x1 d1 r1 _x __ __
    | R_map2_opt_2 (m1, m2, l1, x1, d1, r1, _x, _x0, _x1, _x2, _x3, _x4, l2',
                    o2, r2', e, _res0, r0, _res, r2) ->
      f2 m1 m2 l1 x1 d1 r1 _x __ _x0 _x1 _x2 _x3 _x4 __ l2' o2 r2' __ e __
        _res0 r0
        (coq_R_map2_opt_rect f mapl mapr f0 f1 f2 f3 l1 l2' _res0 r0) _res r2
        (coq_R_map2_opt_rect f mapl mapr f0 f1 f2 f3 r1 r2' _res r2)
    | R_map2_opt_3 (m1, m2, l1, x1, d1, r1, _x, _x0, _x1, _x2, _x3, _x4, l2',
                    o2, r2', _res0, r0, _res, r2) ->
      f3 m1 m2 l1 x1 d1 r1 _x __ _x0 _x1 _x2 _x3 _x4 __ l2' o2 r2' __ __
        _res0 r0
        (coq_R_map2_opt_rect f mapl mapr f0 f1 f2 f3 l1 l2' _res0 r0) _res r2
        (coq_R_map2_opt_rect f mapl mapr f0 f1 f2 f3 r1 r2' _res r2)

    (** val coq_R_map2_opt_rec :
        (key -> 'a1 -> 'a2 option -> 'a3 option) -> ('a1 tree -> 'a3 tree) ->
        ('a2 tree -> 'a3 tree) -> ('a1 tree -> 'a2 tree -> __ -> 'a4) -> ('a1
        tree -> 'a2 tree -> 'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __
        -> __ -> 'a4) -> ('a1 tree -> 'a2 tree -> 'a1 tree -> key -> 'a1 ->
        'a1 tree -> I.t -> __ -> 'a2 tree -> key -> 'a2 -> 'a2 tree -> I.t ->
        __ -> 'a2 tree -> 'a2 option -> 'a2 tree -> __ -> 'a3 -> __ -> 'a3
        tree -> ('a1, 'a2, 'a3) coq_R_map2_opt -> 'a4 -> 'a3 tree -> ('a1,
        'a2, 'a3) coq_R_map2_opt -> 'a4 -> 'a4) -> ('a1 tree -> 'a2 tree ->
        'a1 tree -> key -> 'a1 -> 'a1 tree -> I.t -> __ -> 'a2 tree -> key ->
        'a2 -> 'a2 tree -> I.t -> __ -> 'a2 tree -> 'a2 option -> 'a2 tree ->
        __ -> __ -> 'a3 tree -> ('a1, 'a2, 'a3) coq_R_map2_opt -> 'a4 -> 'a3
        tree -> ('a1, 'a2, 'a3) coq_R_map2_opt -> 'a4 -> 'a4) -> 'a1 tree ->
        'a2 tree -> 'a3 tree -> ('a1, 'a2, 'a3) coq_R_map2_opt -> 'a4 **)

    let rec coq_R_map2_opt_rec f mapl mapr f0 f1 f2 f3 _ _ _ = function
    | R_map2_opt_0 (m1, m2) -> f0 m1 m2 __
    | R_map2_opt_1 (m1, m2, l1, x1, d1, r1, _x) ->
      f1 m1 m2 l1 x1 d1 r1 _x __ __
    | R_map2_opt_2 (m1, m2, l1, x1, d1, r1, _x, _x0, _x1, _x2, _x3, _x4, l2',
                    o2, r2', e, _res0, r0, _res, r2) ->
      f2 m1 m2 l1 x1 d1 r1 _x __ _x0 _x1 _x2 _x3 _x4 __ l2' o2 r2' __ e __
        _res0 r0 (coq_R_map2_opt_rec f mapl mapr f0 f1 f2 f3 l1 l2' _res0 r0)
        _res r2 (coq_R_map2_opt_rec f mapl mapr f0 f1 f2 f3 r1 r2' _res r2)
    | R_map2_opt_3 (m1, m2, l1, x1, d1, r1, _x, _x0, _x1, _x2, _x3, _x4, l2',
                    o2, r2', _res0, r0, _res, r2) ->
      f3 m1 m2 l1 x1 d1 r1 _x __ _x0 _x1 _x2 _x3 _x4 __ l2' o2 r2' __ __
        _res0 r0 (coq_R_map2_opt_rec f mapl mapr f0 f1 f2 f3 l1 l2' _res0 r0)
        _res r2 (coq_R_map2_opt_rec f mapl mapr f0 f1 f2 f3 r1 r2' _res r2)

    (** val fold' : (key -> 'a1 -> 'a2 -> 'a2) -> 'a1 tree -> 'a2 -> 'a2 **)

    let fold' f s =
      L.fold f (elements s)

    (** val flatten_e : 'a1 enumeration -> (key * 'a1) list **)

    let rec flatten_e = function
    | End -> []
    | More (x, e0, t0, r) -> (x, e0) :: (app (elements t0) (flatten_e r))
   end
 end

module IntMake =
 functor (I:Int) ->
 functor (X:OrderedType) ->
 struct
  module E = X

  module Raw = Coq_Raw(I)(X)

  type 'elt bst =
    'elt Raw.tree
    (* singleton inductive, whose constructor was Bst *)

  (** val this : 'a1 bst -> 'a1 Raw.tree **)

  let this b =
    b

  type 'elt t = 'elt bst

  type key = E.t

  (** val empty : 'a1 t **)

  let empty =
    Raw.empty

  (** val is_empty : 'a1 t -> bool **)

  let is_empty m =
    Raw.is_empty (this m)

  (** val add : key -> 'a1 -> 'a1 t -> 'a1 t **)

  let add x e m =
    Raw.add x e (this m)

  (** val remove : key -> 'a1 t -> 'a1 t **)

  let remove x m =
    Raw.remove x (this m)

  (** val mem : key -> 'a1 t -> bool **)

  let mem x m =
    Raw.mem x (this m)

  (** val find : key -> 'a1 t -> 'a1 option **)

  let find x m =
    Raw.find x (this m)

  (** val map : ('a1 -> 'a2) -> 'a1 t -> 'a2 t **)

  let map f m =
    Raw.map f (this m)

  (** val mapi : (key -> 'a1 -> 'a2) -> 'a1 t -> 'a2 t **)

  let mapi f m =
    Raw.mapi f (this m)

  (** val map2 :
      ('a1 option -> 'a2 option -> 'a3 option) -> 'a1 t -> 'a2 t -> 'a3 t **)

  let map2 f m m' =
    Raw.map2 f (this m) (this m')

  (** val elements : 'a1 t -> (key * 'a1) list **)

  let elements m =
    Raw.elements (this m)

  (** val cardinal : 'a1 t -> int **)

  let cardinal m =
    Raw.cardinal (this m)

  (** val fold : (key -> 'a1 -> 'a2 -> 'a2) -> 'a1 t -> 'a2 -> 'a2 **)

  let fold f m i =
    Raw.fold f (this m) i

  (** val equal : ('a1 -> 'a1 -> bool) -> 'a1 t -> 'a1 t -> bool **)

  let equal cmp m m' =
    Raw.equal cmp (this m) (this m')
 end

module Make =
 functor (X:OrderedType) ->
 IntMake(Z_as_Int)(X)

module Nat_as_OT =
 struct
  type t = int

  (** val compare : int -> int -> int compare0 **)

  let compare x y =
    match Nat.compare x y with
    | Eq -> EQ
    | Lt -> LT
    | Gt -> GT

  (** val eq_dec : int -> int -> bool **)

  let eq_dec =
    (=)
 end

type strategy =
| StratCollectives
| StratExchange
| StratAuto

type splan =
| ByCollectives of refinement * plan
| ByExchange
| ByThen of layout * splan * splan

(** val pairs_eqb : (int * int) list -> (int * int) list -> bool **)

let rec pairs_eqb xs ys =
  match xs with
  | [] -> (match ys with
           | [] -> true
           | _ :: _ -> false)
  | p :: xs' ->
    let (a, b) = p in
    (match ys with
     | [] -> false
     | p0 :: ys' ->
       let (c, d) = p0 in
       (&&)
         ((&&) ((fun (a : int) b -> a = b) a c)
           ((fun (a : int) b -> a = b) b d)) (pairs_eqb xs' ys'))

(** val even_problem : layout -> layout -> bool **)

let even_problem s t0 =
  let m = ly_m s in
  (&&)
    ((&&)
      ((&&)
        ((&&)
          ((&&)
            ((&&) (pairs_eqb m (ly_m t0))
              (list_eqb s.ly_mesh.pm_ranks (seq 0 (mesh_size m))))
            (list_eqb t0.ly_mesh.pm_ranks (seq 0 (mesh_size m)))) (mesh_wf m))
        (ty_wf m s.ly_ty)) (ty_wf m t0.ly_ty))
    (list_eqb (global_shape s.ly_ty) (global_shape t0.ly_ty))

module RankMap = Make(Nat_as_OT)

(** val rank_positions : int list -> int -> int RankMap.t **)

let rec rank_positions ws k =
  match ws with
  | [] -> RankMap.empty
  | w :: ws' -> RankMap.add w k (rank_positions ws' (Stdlib.Int.succ k))

type rank_table =
| Contiguous of int * int
| Listed of int RankMap.t

(** val rank_table_of : int list -> rank_table **)

let rank_table_of ws = match ws with
| [] -> Listed RankMap.empty
| k :: _ ->
  if list_eqb ws (seq k (length ws))
  then Contiguous (k, (length ws))
  else Listed (rank_positions ws 0)

(** val table_index : rank_table -> int -> int option **)

let table_index t0 w =
  match t0 with
  | Contiguous (k, n) ->
    if (&&) ((fun (a : int) b -> a <= b) k w)
         ((fun (a : int) b -> a < b) w ((+) k n))
    then Some ((fun (a : int) b -> if a >= b then a - b else 0) w k)
    else None
  | Listed positions0 -> RankMap.find w positions0

(** val rank_box : mesh -> ty -> int -> box **)

let rank_box m t0 =
  if (&&) (mesh_wf m) (forallb (fun x -> memb x (mesh_axes m)) (ty_axes t0))
  then let ws = rank_weights m in
       let n = mesh_size m in
       let dims =
         map (fun d -> (((snd d), (block_size m d)),
           (map (weight_of ws) (fst d)))) t0
       in
       (fun k ->
       if (fun (a : int) b -> a < b) k n
       then map (fun pat ->
              let (y, digits) = pat in
              let (len, b) = y in
              let j = radix_of_rank digits k in
              let lo =
                (fun (a : int) b -> if a <= b then a else b) len (( * ) j b)
              in
              (lo,
              ((fun (a : int) b -> if a >= b then a - b else 0)
                ((fun (a : int) b -> if a <= b then a else b) len
                  (( * ) (Stdlib.Int.succ j) b)) lo))) dims
       else dev_box m t0 (device_of_rank m k))
  else (fun k -> dev_box m t0 (device_of_rank m k))

(** val box_in : layout -> rank_table -> int -> box option **)

let box_in l t0 =
  let box0 = rank_box (ly_m l) l.ly_ty in
  (fun w ->
  match table_index t0 w with
  | Some k -> Some (box0 k)
  | None -> None)

(** val largest_box_in : layout -> rank_table -> int **)

let largest_box_in l t0 =
  let boxes = box_in l t0 in
  fold_left (fun acc w ->
    (fun (a : int) b -> if a >= b then a else b) acc
      (match boxes w with
       | Some b -> box_size b
       | None -> 0)) l.ly_mesh.pm_ranks 0

(** val largest_box : layout -> int **)

let largest_box l =
  largest_box_in l (rank_table_of l.ly_mesh.pm_ranks)

(** val recv_bound_in :
    layout -> layout -> rank_table -> rank_table -> int -> int **)

let recv_bound_in s t0 tS tT =
  let source = box_in s tS in
  let target = box_in t0 tT in
  (fun r ->
  match target r with
  | Some b ->
    (fun (a : int) b -> if a >= b then a - b else 0) (box_size b)
      (match source r with
       | Some sb -> overlap_size sb b
       | None -> 0)
  | None -> 0)

(** val exchange_recv : layout -> layout -> int -> int **)

let exchange_recv s t0 =
  if even_problem s t0
  then let m = ly_m s in
       let n = mesh_size m in
       let bound = lower_bound_recv m s.ly_ty t0.ly_ty in
       (fun r -> if (fun (a : int) b -> a < b) r n then bound r else 0)
  else recv_bound_in s t0 (rank_table_of s.ly_mesh.pm_ranks)
         (rank_table_of t0.ly_mesh.pm_ranks)

(** val largest_boxes : layout -> layout -> int * int **)

let largest_boxes s t0 =
  if even_problem s t0
  then ((local_size (ly_m s) s.ly_ty), (local_size (ly_m s) t0.ly_ty))
  else ((largest_box s), (largest_box t0))

type xcheck_error =
| NotOneEvenMesh
| BadRefinement
| CollectivesRejected of check_error
| BadLayouts
| BadIntermediate

type xreport = { xr_peak : int; xr_recv : (int -> int);
                 xr_collectives : report option }

(** val xcheck : layout -> layout -> splan -> (xcheck_error, xreport) res **)

let rec xcheck s t0 = function
| ByCollectives (rf, p) ->
  let m = ly_m s in
  if negb (even_problem s t0)
  then Error NotOneEvenMesh
  else if negb (refine_ok m rf)
       then Error BadRefinement
       else (match check (refine_mesh rf m) (refine_ty rf s.ly_ty)
                     (refine_ty rf t0.ly_ty) p with
             | OK rep ->
               OK { xr_peak = rep.rp_peak; xr_recv = (fun r ->
                 list_sum (map (fun s0 -> s0.sr_recv r) rep.rp_steps));
                 xr_collectives = (Some rep) }
             | Error e -> Error (CollectivesRejected e))
| ByExchange ->
  if layouts_wf s t0
  then OK { xr_peak =
         ((fun (a : int) b -> if a >= b then a else b)
           (fst (largest_boxes s t0)) (snd (largest_boxes s t0))); xr_recv =
         (exchange_recv s t0); xr_collectives = None }
  else Error BadLayouts
| ByThen (mid, a, b) ->
  if negb (list_eqb mid.ly_mesh.pm_ranks t0.ly_mesh.pm_ranks)
  then Error BadIntermediate
  else (match xcheck s mid a with
        | OK ra ->
          (match xcheck mid t0 b with
           | OK rb ->
             OK { xr_peak =
               ((fun (a : int) b -> if a >= b then a else b) ra.xr_peak
                 rb.xr_peak); xr_recv = (fun r ->
               (+) (ra.xr_recv r) (rb.xr_recv r)); xr_collectives = None }
           | Error e -> Error e)
        | Error e -> Error e)

(** val xexec : layout -> layout -> splan -> 'a1 state -> 'a1 state **)

let rec xexec s t0 sp st =
  match sp with
  | ByCollectives (rf, p) ->
    exec (refine_mesh rf (ly_m s)) (refine_ty rf s.ly_ty) p st
  | ByExchange -> exchange s t0 (spread_holder s t0) st
  | ByThen (mid, a, b) -> xexec mid t0 b (xexec s mid a st)

(** val xreceived : layout -> layout -> splan -> int -> int **)

let rec xreceived s t0 sp r =
  match sp with
  | ByCollectives (rf, p) ->
    list_sum
      (received_trace (refine_mesh rf (ly_m s)) (refine_ty rf s.ly_ty) p r)
  | ByExchange -> exchange_received s t0 (spread_holder s t0) r
  | ByThen (mid, a, b) -> (+) (xreceived s mid a r) (xreceived mid t0 b r)

(** val exchange_busiest : layout -> layout -> int **)

let exchange_busiest s t0 =
  let recv = exchange_recv s t0 in
  fold_left (fun acc r ->
    (fun (a : int) b -> if a >= b then a else b) acc (recv r))
    t0.ly_mesh.pm_ranks 0

(** val plan_with : strategy -> layout -> layout -> splan option **)

let plan_with s s0 t0 =
  let m = ly_m s0 in
  let exchange_plan = if layouts_wf s0 t0 then Some ByExchange else None in
  if even_problem s0 t0
  then (match s with
        | StratCollectives ->
          let (rf, p) = planner m s0.ly_ty t0.ly_ty in
          Some (ByCollectives (rf, p))
        | StratExchange -> exchange_plan
        | StratAuto ->
          (match planner_choice m s0.ly_ty t0.ly_ty with
           | Some p0 ->
             let (p1, cost) = p0 in
             let (rf, p) = p1 in
             if cost_lt ((exchange_busiest s0 t0), (Stdlib.Int.succ 0)) cost
             then exchange_plan
             else Some (ByCollectives (rf, p))
           | None -> exchange_plan))
  else (match s with
        | StratCollectives -> None
        | _ -> exchange_plan)

type cmonoid = { zero : __; add0 : (__ -> __ -> __) }

type carrier = __

(** val msum : cmonoid -> carrier list -> carrier **)

let msum m xs =
  fold_left m.add0 xs m.zero

type pty = ty * axis list

(** val pty_wf : mesh -> pty -> bool **)

let pty_wf m p =
  (&&) ((&&) (ty_wf m (fst p)) (nodupb (snd p)))
    (forallb (fun a ->
      (&&) (memb a (mesh_axes m)) (negb (memb a (ty_axes (fst p))))) 
      (snd p))

(** val group_sum_along :
    cmonoid -> mesh -> axis list -> axis list -> device -> (device ->
    carrier) -> carrier **)

let rec group_sum_along m m0 ps xs c f =
  match xs with
  | [] -> f c
  | x :: xs' ->
    if memb x ps
    then msum m
           (map (fun k -> group_sum_along m m0 ps xs' (set_coord c x k) f)
             (seq 0 (axis_size m0 x)))
    else group_sum_along m m0 ps xs' c f

(** val group_sum :
    cmonoid -> mesh -> axis list -> device -> (device -> carrier) -> carrier **)

let group_sum m m0 ps c f =
  group_sum_along m m0 ps (mesh_axes m0) c f

type sum_step =
| ReduceScatter of int * axis
| AllReduce of axis
| AddPending of axis

type sum_error =
| SumDimOutOfRange of int
| NotPending of axis
| ScatterNotDividing of int * axis
| PendingNotInMesh of axis
| PendingInUse of axis
| AlreadyPending of axis

(** val remove_axis : axis -> axis list -> axis list **)

let remove_axis a ps =
  filter (fun x -> negb ((fun (a : int) b -> a = b) x a)) ps

(** val sum_step_type : mesh -> pty -> sum_step -> (sum_error, pty) res **)

let sum_step_type m p k =
  let (t0, ps) = p in
  (match k with
   | ReduceScatter (d, a) ->
     if negb (memb a ps)
     then Error (NotPending a)
     else (match nth_error t0 d with
           | Some d0 ->
             let (xs, n) = d0 in
             if negb
                  ((fun (a : int) b -> a = b)
                    ((fun a b -> if b = 0 then a else a mod b)
                      (extent m (xs, n)) (axis_size m a)) 0)
             then Error (ScatterNotDividing (d, a))
             else OK ((set_dim t0 d ((app xs (a :: [])), n)),
                    (remove_axis a ps))
           | None -> Error (SumDimOutOfRange d))
   | AllReduce a ->
     if negb (memb a ps)
     then Error (NotPending a)
     else OK (t0, (remove_axis a ps))
   | AddPending a ->
     if negb (memb a (mesh_axes m))
     then Error (PendingNotInMesh a)
     else if memb a (ty_axes t0)
          then Error (PendingInUse a)
          else if memb a ps
               then Error (AlreadyPending a)
               else OK (t0, (a :: ps)))

(** val along : mesh -> device -> axis -> device list **)

let along m c a =
  map (set_coord c a) (seq 0 (axis_size m a))

(** val sum_wire :
    mesh -> pty -> sum_step -> device -> int list -> (device * int list) list **)

let sum_wire m p k c l =
  match k with
  | ReduceScatter (d, a) ->
    let l' = snd (wire m (fst p) (DynSlice (d, a)) c l) in
    map (fun c' -> (c', l')) (along m c a)
  | AllReduce a -> map (fun c' -> (c', l)) (along m c a)
  | AddPending a ->
    if (fun (a : int) b -> a = b) (c a) 0 then (c, l) :: [] else []

(** val exec_sum_step :
    cmonoid -> mesh -> pty -> sum_step -> carrier state -> carrier state **)

let exec_sum_step m m0 p k st r l =
  msum m
    (map (fun src -> st (rank m0 (fst src)) (snd src))
      (sum_wire m0 p k (device_of_rank m0 r) l))

(** val sum_recv_count : mesh -> pty -> sum_step -> int **)

let sum_recv_count m p' = function
| ReduceScatter (_, a) ->
  ( * )
    ((fun (a : int) b -> if a >= b then a - b else 0) (axis_size m a)
      (Stdlib.Int.succ 0)) (local_size m (fst p'))
| AllReduce a ->
  ( * )
    ((fun (a : int) b -> if a >= b then a - b else 0) (axis_size m a)
      (Stdlib.Int.succ 0)) (local_size m (fst p'))
| AddPending _ -> 0

type fill =
| KeepOne
| KeepAll

(** val exec_fill_step :
    cmonoid -> fill -> mesh -> pty -> sum_step -> carrier state -> carrier
    state **)

let exec_fill_step m fl m0 p k st =
  match fl with
  | KeepOne -> exec_sum_step m m0 p k st
  | KeepAll ->
    (match k with
     | AddPending _ -> st
     | _ -> exec_sum_step m m0 p k st)

(** val sum_plan_type :
    mesh -> pty -> sum_step list -> (sum_error, pty) res **)

let rec sum_plan_type m p = function
| [] -> OK p
| k :: ks' ->
  (match sum_step_type m p k with
   | OK p' -> sum_plan_type m p' ks'
   | Error e -> Error e)

(** val exec_sum_plan :
    cmonoid -> fill -> mesh -> pty -> sum_step list -> carrier state ->
    carrier state **)

let rec exec_sum_plan m fl m0 p ks st =
  match ks with
  | [] -> st
  | k :: ks' ->
    (match sum_step_type m0 p k with
     | OK p' -> exec_sum_plan m fl m0 p' ks' (exec_fill_step m fl m0 p k st)
     | Error _ -> st)

(** val world_rank : pmesh -> device -> int **)

let world_rank pm c =
  nth (rank pm.pm_mesh c) pm.pm_ranks 0

(** val group_members_along :
    mesh -> axis list -> axis list -> device -> device list **)

let rec group_members_along m ps xs c =
  match xs with
  | [] -> c :: []
  | x :: xs' ->
    if memb x ps
    then flat_map (fun k -> group_members_along m ps xs' (set_coord c x k))
           (seq 0 (axis_size m x))
    else group_members_along m ps xs' c

(** val group_members : mesh -> axis list -> device -> device list **)

let group_members m ps c =
  group_members_along m ps (mesh_axes m) c

(** val pl_pending_wf : layout -> axis list -> bool **)

let pl_pending_wf l ps =
  (&&) ((&&) (layout_wf l) (nodupb ps))
    (forallb (fun a ->
      (&&) (memb a (mesh_axes (ly_m l))) (negb (memb a (ty_axes l.ly_ty))))
      ps)

(** val pl_pending_value :
    cmonoid -> layout -> axis list -> carrier state -> carrier state **)

let pl_pending_value m l ps st w l0 =
  match index_of w l.ly_mesh.pm_ranks with
  | Some k ->
    group_sum m (ly_m l) ps (device_of_rank (ly_m l) k) (fun c ->
      st (world_rank l.ly_mesh c) l0)
  | None -> st w l0

(** val reducing_sources :
    layout -> axis list -> layout -> holder_choice -> int -> int list ->
    (int * int list) list **)

let reducing_sources s ps t0 h r l =
  match pl_box t0 r with
  | Some b ->
    let i = box_global b l in
    (match index_of (h r i) s.ly_mesh.pm_ranks with
     | Some k ->
       map (fun c -> ((world_rank s.ly_mesh c),
         (box_local (dev_box (ly_m s) s.ly_ty c) i)))
         (group_members (ly_m s) ps (device_of_rank (ly_m s) k))
     | None -> [])
  | None -> (r, l) :: []

(** val group_size : mesh -> axis list -> int **)

let group_size m ps =
  prod0 (map (axis_size m) (filter (fun x -> memb x ps) (mesh_axes m)))

(** val designated : layout -> axis list -> int -> bool **)

let designated t0 pt r =
  match index_of r t0.ly_mesh.pm_ranks with
  | Some k ->
    forallb (fun a ->
      (fun (a : int) b -> a = b) (device_of_rank (ly_m t0) k a) 0) pt
  | None -> true

(** val reducing_sources_to :
    layout -> axis list -> layout -> axis list -> holder_choice -> int -> int
    list -> (int * int list) list **)

let reducing_sources_to s ps t0 pt h r l =
  if designated t0 pt r then reducing_sources s ps t0 h r l else []

(** val reducing_exchange_to :
    cmonoid -> layout -> axis list -> layout -> axis list -> holder_choice ->
    carrier state -> carrier state **)

let reducing_exchange_to m s ps t0 pt h st r l =
  msum m
    (map (fun src -> st (fst src) (snd src))
      (reducing_sources_to s ps t0 pt h r l))

type pstep =
| PCollective of collective
| PSum of sum_step

type pstep_error =
| CollectiveError of step_error
| SumError of sum_error
| MovesPending of collective

(** val pstep_type : mesh -> pty -> pstep -> (pstep_error, pty) res **)

let pstep_type m p = function
| PCollective k ->
  (match step_type m (fst p) k with
   | OK t' ->
     if pty_wf m (t', (snd p))
     then OK (t', (snd p))
     else Error (MovesPending k)
   | Error e -> Error (CollectiveError e))
| PSum k ->
  (match sum_step_type m p k with
   | OK p' -> OK p'
   | Error e -> Error (SumError e))

(** val pplan_type : mesh -> pty -> pstep list -> (pstep_error, pty) res **)

let rec pplan_type m p = function
| [] -> OK p
| s :: ss' ->
  (match pstep_type m p s with
   | OK p' -> pplan_type m p' ss'
   | Error e -> Error e)

(** val pstep_recv_count : mesh -> pty -> pty -> pstep -> int -> int **)

let pstep_recv_count m p p' s r =
  match s with
  | PCollective k -> recv_count m (fst p) k r
  | PSum k -> sum_recv_count m p' k

type sumplan =
| SumByCollectives of sum_step list * refinement * plan * sum_step list
| SumByExchange

type sum_step_report = { ss_step : sum_step; ss_type : pty;
                         ss_local_size : int; ss_recv : int }

(** val sum_steps_check :
    mesh -> pty -> sum_step list -> (sum_error, sum_step_report list * pty)
    res **)

let rec sum_steps_check m p = function
| [] -> OK ([], p)
| k :: ks' ->
  (match sum_step_type m p k with
   | OK p' ->
     (match sum_steps_check m p' ks' with
      | OK a ->
        let (reps, final) = a in
        OK (({ ss_step = k; ss_type = p'; ss_local_size =
        (local_size m (fst p')); ss_recv =
        (sum_recv_count m p' k) } :: reps), final)
      | Error e -> Error e)
   | Error e -> Error e)

(** val steps_recv : sum_step_report list -> int **)

let steps_recv reps =
  list_sum (map (fun s -> s.ss_recv) reps)

(** val is_empty0 : 'a1 list -> bool **)

let is_empty0 = function
| [] -> true
| _ :: _ -> false

(** val same_axes : axis list -> axis list -> bool **)

let same_axes xs ys =
  (&&) (forallb (fun a -> memb a ys) xs) (forallb (fun a -> memb a xs) ys)

type scheck_error =
| SumNotOneEvenMesh
| SumBadPending
| SumStepRejected of sum_error
| SumStillPending of axis list
| SumBadRefinement
| SumCollectivesRejected of check_error
| SumWrongEnd of pty

type sum_report = { sm_pre : sum_step_report list;
                    sm_collectives : report option;
                    sm_post : sum_step_report list; sm_peak : int;
                    sm_recv : (int -> int) }

(** val box_size_at : layout -> int -> int **)

let box_size_at l w =
  match pl_box l w with
  | Some b -> box_size b
  | None -> 0

(** val target_box_size : layout -> layout -> int -> int **)

let target_box_size s t0 =
  if even_problem s t0
  then let m = ly_m s in
       let size = local_size m t0.ly_ty in
       (fun r ->
       if (fun (a : int) b -> a < b) r (mesh_size m) then size else 0)
  else let boxes = box_in t0 (rank_table_of t0.ly_mesh.pm_ranks) in
       (fun r -> match boxes r with
                 | Some b -> box_size b
                 | None -> 0)

(** val receives_sum : layout -> layout -> axis list -> int -> bool **)

let receives_sum s t0 pt =
  if even_problem s t0
  then let m = ly_m s in
       (fun r ->
       if (fun (a : int) b -> a < b) r (mesh_size m)
       then forallb (fun a ->
              (fun (a : int) b -> a = b) (device_of_rank m r a) 0) pt
       else true)
  else let table = rank_table_of t0.ly_mesh.pm_ranks in
       (fun r ->
       match table_index table r with
       | Some k ->
         forallb (fun a ->
           (fun (a : int) b -> a = b) (device_of_rank (ly_m t0) k a) 0) pt
       | None -> true)

(** val sum_recv_bound : layout -> axis list -> layout -> int -> int **)

let sum_recv_bound s ps t0 =
  if (fun (a : int) b -> a = b) (group_size (ly_m s) ps) (Stdlib.Int.succ 0)
  then exchange_recv s t0
  else target_box_size s t0

(** val sum_exchange_recv :
    layout -> axis list -> layout -> axis list -> int -> int **)

let sum_exchange_recv s ps t0 pt =
  let others =
    (fun (a : int) b -> if a >= b then a - b else 0) (group_size (ly_m s) ps)
      (Stdlib.Int.succ 0)
  in
  let size = target_box_size s t0 in
  let recv = exchange_recv s t0 in
  let receives = receives_sum s t0 pt in
  (fun r -> if receives r then (+) (( * ) others (size r)) (recv r) else 0)

(** val sum_exchange_ok :
    layout -> axis list -> layout -> axis list -> bool **)

let sum_exchange_ok s ps t0 pt =
  (&&) ((&&) (layouts_wf s t0) (pl_pending_wf s ps)) (pl_pending_wf t0 pt)

(** val scheck :
    layout -> axis list -> layout -> axis list -> sumplan -> (scheck_error,
    sum_report) res **)

let scheck s ps t0 pt = function
| SumByCollectives (pre, rf, p, post) ->
  let m = ly_m s in
  if negb (even_problem s t0)
  then Error SumNotOneEvenMesh
  else if negb ((&&) (pty_wf m (s.ly_ty, ps)) (pty_wf m (t0.ly_ty, pt)))
       then Error SumBadPending
       else (match sum_steps_check m (s.ly_ty, ps) pre with
             | OK a ->
               let (pre_reps, p0) = a in
               let (t1, kept) = p0 in
               if negb (refine_ok m rf)
               then Error SumBadRefinement
               else (match check (refine_mesh rf m) (refine_ty rf t1)
                             (refine_ty rf t0.ly_ty) p with
                     | OK rep ->
                       if negb
                            ((||) (is_empty0 kept)
                              ((&&) (is_empty0 p) (ty_eqb t1 t0.ly_ty)))
                       then Error (SumStillPending kept)
                       else (match sum_steps_check m (t0.ly_ty, kept) post with
                             | OK a0 ->
                               let (post_reps, p1) = a0 in
                               let (t2, pt2) = p1 in
                               if negb
                                    ((&&) (ty_eqb t2 t0.ly_ty)
                                      (same_axes pt2 pt))
                               then Error (SumWrongEnd (t2, pt2))
                               else OK { sm_pre = pre_reps; sm_collectives =
                                      (Some rep); sm_post = post_reps;
                                      sm_peak =
                                      (fold_left
                                        (fun (a : int) b -> if a >= b then a else b)
                                        (app
                                          (map (fun s0 -> s0.ss_local_size)
                                            pre_reps)
                                          (rep.rp_peak :: (map (fun s0 ->
                                                            s0.ss_local_size)
                                                            post_reps)))
                                        (local_size m s.ly_ty)); sm_recv =
                                      (fun r ->
                                      (+)
                                        (if (fun (a : int) b -> a < b) r
                                              (mesh_size m)
                                         then (+) (steps_recv pre_reps)
                                                (steps_recv post_reps)
                                         else 0)
                                        (list_sum
                                          (map (fun s0 -> s0.sr_recv r)
                                            rep.rp_steps))) }
                             | Error e -> Error (SumStepRejected e))
                     | Error e -> Error (SumCollectivesRejected e))
             | Error e -> Error (SumStepRejected e))
| SumByExchange ->
  if sum_exchange_ok s ps t0 pt
  then OK { sm_pre = []; sm_collectives = None; sm_post = []; sm_peak =
         ((fun (a : int) b -> if a >= b then a else b)
           (fst (largest_boxes s t0)) (snd (largest_boxes s t0))); sm_recv =
         (sum_exchange_recv s ps t0 pt) }
  else Error SumBadPending

(** val reduced : mesh -> pty -> sum_step list -> pty **)

let reduced m p pre =
  match sum_plan_type m p pre with
  | OK p1 -> p1
  | Error _ -> p

(** val sexec :
    cmonoid -> fill -> layout -> axis list -> layout -> axis list -> sumplan
    -> carrier state -> carrier state **)

let sexec m fl s ps t0 pt sp st =
  match sp with
  | SumByCollectives (pre, rf, p, post) ->
    let m0 = ly_m s in
    let p1 = reduced m0 (s.ly_ty, ps) pre in
    exec_sum_plan m fl m0 (t0.ly_ty, (snd p1)) post
      (exec (refine_mesh rf m0) (refine_ty rf (fst p1)) p
        (exec_sum_plan m fl m0 (s.ly_ty, ps) pre st))
  | SumByExchange -> reducing_exchange_to m s ps t0 pt (spread_holder s t0) st

(** val first_index : ('a1 -> bool) -> 'a1 list -> int option **)

let rec first_index f = function
| [] -> None
| x :: xs' ->
  if f x
  then Some 0
  else option_map (fun x0 -> Stdlib.Int.succ x0) (first_index f xs')

(** val reduce_choice : bool -> mesh -> ty -> ty -> axis -> sum_step **)

let reduce_choice replicated_all_reduce m tgt t0 a =
  let divides = fun d ->
    (fun (a : int) b -> a = b)
      ((fun a b -> if b = 0 then a else a mod b) (extent m d) (axis_size m a))
      0
  in
  (match first_index (fun d -> memb a (fst d)) tgt with
   | Some d ->
     if divides (nth d t0 ([], 0)) then ReduceScatter (d, a) else AllReduce a
   | None ->
     if replicated_all_reduce
     then AllReduce a
     else (match first_index divides t0 with
           | Some d -> ReduceScatter (d, a)
           | None -> AllReduce a))

(** val reduce_steps :
    bool -> mesh -> ty -> pty -> axis list -> sum_step list **)

let rec reduce_steps replicated_all_reduce m tgt p = function
| [] -> []
| a :: rest ->
  let preferred = reduce_choice replicated_all_reduce m tgt (fst p) a in
  (match sum_step_type m p preferred with
   | OK p' -> preferred :: (reduce_steps replicated_all_reduce m tgt p' rest)
   | Error _ ->
     (match sum_step_type m p (AllReduce a) with
      | OK p' ->
        (AllReduce a) :: (reduce_steps replicated_all_reduce m tgt p' rest)
      | Error _ -> []))

(** val add_steps : axis list -> sum_step list **)

let add_steps pt =
  map (fun x -> AddPending x) (rev pt)

(** val sum_candidate :
    bool -> layout -> axis list -> layout -> axis list ->
    (sumplan * (int * int)) option **)

let sum_candidate replicated_all_reduce s ps t0 pt =
  let m = ly_m s in
  let pre = reduce_steps replicated_all_reduce m t0.ly_ty (s.ly_ty, ps) ps in
  (match sum_steps_check m (s.ly_ty, ps) pre with
   | OK a ->
     let (reps, p) = a in
     let (t1, l) = p in
     (match l with
      | [] ->
        (match planner_choice m t1 t0.ly_ty with
         | Some p0 ->
           let (p1, p2) = p0 in
           let (rf, p3) = p1 in
           let (traffic, launches) = p2 in
           Some ((SumByCollectives (pre, rf, p3, (add_steps pt))),
           (((+) (steps_recv reps) traffic),
           ((+) ((+) (length pre) launches) (length pt))))
         | None -> None)
      | _ :: _ -> None)
   | Error _ -> None)

(** val keep_candidate :
    layout -> axis list -> layout -> axis list -> (sumplan * (int * int))
    option **)

let keep_candidate s ps t0 pt =
  let m = ly_m s in
  let pre =
    reduce_steps false m t0.ly_ty (s.ly_ty, ps)
      (filter (fun a -> negb (memb a pt)) ps)
  in
  let post = add_steps (filter (fun a -> negb (memb a ps)) pt) in
  (match sum_steps_check m (s.ly_ty, ps) pre with
   | OK a ->
     let (reps, _) = a in
     Some ((SumByCollectives (pre, [], [], post)), ((steps_recv reps),
     ((+) (length pre) (length post))))
   | Error _ -> None)

(** val qualifies :
    layout -> axis list -> layout -> axis list -> sumplan -> bool **)

let qualifies s ps t0 pt sp =
  match scheck s ps t0 pt sp with
  | OK rep ->
    (fun (a : int) b -> a <= b) rep.sm_peak
      ((fun (a : int) b -> if a >= b then a else b)
        (fst (largest_boxes s t0)) (snd (largest_boxes s t0)))
  | Error _ -> false

(** val cheapest :
    (sumplan * (int * int)) list -> (sumplan * (int * int)) option **)

let cheapest cs =
  fold_left (fun best0 c ->
    match best0 with
    | Some b -> if cost_lt (snd c) (snd b) then Some c else best0
    | None -> Some c) cs None

(** val sum_collectives :
    layout -> axis list -> layout -> axis list -> (sumplan * (int * int))
    option **)

let sum_collectives s ps t0 pt =
  let options =
    (keep_candidate s ps t0 pt) :: ((sum_candidate false s ps t0 pt) :: (
    (sum_candidate true s ps t0 pt) :: []))
  in
  cheapest
    (filter (fun c -> qualifies s ps t0 pt (fst c))
      (flat_map (fun o -> match o with
                          | Some c -> c :: []
                          | None -> []) options))

(** val sum_exchange_busiest :
    layout -> axis list -> layout -> axis list -> int **)

let sum_exchange_busiest s ps t0 pt =
  let recv = sum_exchange_recv s ps t0 pt in
  fold_left (fun acc r ->
    (fun (a : int) b -> if a >= b then a else b) acc (recv r))
    t0.ly_mesh.pm_ranks 0

(** val plan_sums :
    strategy -> layout -> axis list -> layout -> axis list -> sumplan option **)

let plan_sums s s0 ps t0 pt =
  let exchange_plan =
    if sum_exchange_ok s0 ps t0 pt then Some SumByExchange else None
  in
  if even_problem s0 t0
  then (match s with
        | StratCollectives -> option_map fst (sum_collectives s0 ps t0 pt)
        | StratExchange -> exchange_plan
        | StratAuto ->
          (match sum_collectives s0 ps t0 pt with
           | Some p ->
             let (sp, cost) = p in
             if cost_lt ((sum_exchange_busiest s0 ps t0 pt), (Stdlib.Int.succ
                  0)) cost
             then exchange_plan
             else Some sp
           | None -> exchange_plan))
  else (match s with
        | StratCollectives -> None
        | _ -> exchange_plan)

type buffer =
| BSrc
| BDst
| BPing
| BPong

(** val buffer_beq : buffer -> buffer -> bool **)

let buffer_beq x y =
  match x with
  | BSrc -> (match y with
             | BSrc -> true
             | _ -> false)
  | BDst -> (match y with
             | BDst -> true
             | _ -> false)
  | BPing -> (match y with
              | BPing -> true
              | _ -> false)
  | BPong -> (match y with
              | BPong -> true
              | _ -> false)

(** val in_workspace : buffer -> bool **)

let in_workspace = function
| BSrc -> false
| BDst -> false
| _ -> true

(** val next_work : buffer -> buffer **)

let next_work = function
| BPing -> BPong
| _ -> BPing

type call = { cl_op : collective option; cl_ty : ty; cl_shape : int list;
              cl_group : (int * int) option; cl_recv_from : int list;
              cl_in : buffer; cl_out : buffer; cl_in_bytes : int;
              cl_out_bytes : int; cl_scratch : int }

(** val outer_count : int list -> int -> int **)

let outer_count shape d =
  prod0 (firstn d shape)

(** val all_gather_scratch : int list -> int -> int -> int -> int **)

let all_gather_scratch shape d size elem =
  if (fun (a : int) b -> a <= b) size (Stdlib.Int.succ 0)
  then 0
  else if (fun (a : int) b -> a = b) (outer_count shape d) (Stdlib.Int.succ 0)
       then 0
       else ( * ) size (( * ) (prod0 shape) elem)

(** val all_to_all_scratch : int list -> int -> int -> int -> int -> int **)

let all_to_all_scratch shape s u size elem =
  let out =
    upd (upd shape s (( * ) (nth s shape 0) size)) u
      ((fun a b -> if b = 0 then 0 else a / b) (nth u shape 0) size)
  in
  if (fun (a : int) b -> a <= b) size (Stdlib.Int.succ 0)
  then 0
  else if (||)
            ((fun (a : int) b -> a < b) (Stdlib.Int.succ 0)
              (outer_count shape u))
            ((fun (a : int) b -> a < b) (Stdlib.Int.succ 0)
              (outer_count out s))
       then ( * ) (prod0 shape) elem
       else 0

(** val step_axis : ty -> collective -> axis option **)

let step_axis t0 = function
| DynSlice (_, x) -> Some x
| AllGather d -> Some (last_axis (fst (dim_of t0 d)))
| AllToAll (d, _) -> Some (last_axis (fst (dim_of t0 d)))
| AllPermute _ -> None

(** val axis_group : mesh -> axis -> int * int **)

let axis_group m x =
  weight_of (rank_weights m) x

(** val digit_device : (axis * (int * int)) list -> int -> device **)

let digit_device ws r x =
  let (w, s) = weight_of ws x in
  (fun a b -> if b = 0 then a else a mod b)
    ((fun a b -> if b = 0 then 0 else a / b) r w) s

(** val radix_weights : mesh -> axis list -> (axis * int) list **)

let rec radix_weights m = function
| [] -> []
| x :: xs' -> (x, (prod0 (map (axis_size m) xs'))) :: (radix_weights m xs')

(** val set_digits : (axis * int) list -> int -> device -> device **)

let rec set_digits ws q c =
  match ws with
  | [] -> c
  | p :: ws' ->
    let (x, w) = p in
    set_digits ws' ((fun a b -> if b = 0 then a else a mod b) q w)
      (set_coord c x ((fun a b -> if b = 0 then 0 else a / b) q w))

(** val sized : mesh -> axis list -> (axis * int) list **)

let sized m xs =
  map (fun x -> (x, (axis_size m x))) xs

(** val radix_sized : (axis * int) list -> device -> int **)

let radix_sized xs c =
  fold_left (fun acc pat -> let (x, s) = pat in (+) (( * ) acc s) (c x)) xs 0

(** val holder_digits :
    ((axis * int) list * (axis * int) list) list -> device -> device -> device **)

let rec holder_digits dims c0 c =
  match dims with
  | [] -> c
  | p :: dims' ->
    let (xs, ys) = p in
    holder_digits dims' c0 (set_digits xs (radix_sized ys c0) c)

(** val holder_dims :
    mesh -> ty -> ty -> ((axis * int) list * (axis * int) list) list **)

let holder_dims m t0 t' =
  map (fun pat ->
    let (d, d') = pat in ((radix_weights m (fst d)), (sized m (fst d'))))
    (combine t0 t')

(** val recv_from_table : mesh -> ty -> ty -> int list **)

let recv_from_table m t0 t' =
  let device0 =
    if mesh_wf m then digit_device (rank_weights m) else device_of_rank m
  in
  let dims = holder_dims m t0 t' in
  let axes = sized m (mesh_axes m) in
  map (fun r ->
    let c = device0 r in radix_sized axes (holder_digits dims c c))
    (seq 0 (mesh_size m))

(** val step_scratch : int list -> collective -> int -> int -> int **)

let step_scratch shape k group_size0 elem =
  match k with
  | AllGather d -> all_gather_scratch shape d group_size0 elem
  | AllToAll (s, u) -> all_to_all_scratch shape s u group_size0 elem
  | _ -> 0

(** val lower_step :
    mesh -> int -> ty -> ty -> collective -> buffer -> buffer -> call **)

let lower_step m elem t0 t' k inb outb =
  let group = option_map (axis_group m) (step_axis t0 k) in
  { cl_op = (Some k); cl_ty = t0; cl_shape = (local_shape m t0); cl_group =
  group; cl_recv_from =
  (match k with
   | AllPermute t'' -> recv_from_table m t0 t''
   | _ -> []); cl_in = inb; cl_out = outb; cl_in_bytes =
  (( * ) (local_size m t0) elem); cl_out_bytes =
  (( * ) (local_size m t') elem); cl_scratch =
  (match group with
   | Some p ->
     let (_, size) = p in step_scratch (local_shape m t0) k size elem
   | None -> 0) }

(** val lower_steps : mesh -> int -> ty -> plan -> buffer -> call list **)

let rec lower_steps m elem t0 p inb =
  match p with
  | [] -> []
  | k :: p' ->
    (match step_type m t0 k with
     | OK t' ->
       let outb = match p' with
                  | [] -> BDst
                  | _ :: _ -> next_work inb in
       (lower_step m elem t0 t' k inb outb) :: (lower_steps m elem t' p' outb)
     | Error _ -> [])

(** val copy_call : mesh -> int -> ty -> call **)

let copy_call m elem src =
  let n = ( * ) (local_size m src) elem in
  { cl_op = None; cl_ty = src; cl_shape = (local_shape m src); cl_group =
  None; cl_recv_from = []; cl_in = BSrc; cl_out = BDst; cl_in_bytes = n;
  cl_out_bytes = n; cl_scratch = 0 }

(** val lower : mesh -> int -> ty -> plan -> call list **)

let lower m elem src p = match p with
| [] -> (copy_call m elem src) :: []
| _ :: _ -> lower_steps m elem src p BSrc

(** val written_bytes : buffer -> call -> int **)

let written_bytes b c =
  if buffer_beq c.cl_out b then c.cl_out_bytes else 0

(** val ping_bytes : call list -> int **)

let ping_bytes cs =
  list_max (map (written_bytes BPing) cs)

(** val pong_bytes : call list -> int **)

let pong_bytes cs =
  list_max (map (written_bytes BPong) cs)

(** val scratch_bytes : call list -> int **)

let scratch_bytes cs =
  list_max (map (fun c -> c.cl_scratch) cs)

(** val pong_offset : call list -> int **)

let pong_offset =
  ping_bytes

(** val scratch_offset : call list -> int **)

let scratch_offset cs =
  (+) (ping_bytes cs) (pong_bytes cs)

(** val workspace_bytes : call list -> int **)

let workspace_bytes cs =
  (+) (scratch_offset cs) (scratch_bytes cs)

(** val call_live : int -> int -> call -> int **)

let call_live src_bytes tgt_bytes c =
  (+)
    ((+)
      ((+) ((+) src_bytes tgt_bytes)
        (if in_workspace c.cl_in then c.cl_in_bytes else 0))
      (if in_workspace c.cl_out then c.cl_out_bytes else 0)) c.cl_scratch

(** val calls_live_bytes : int -> int -> call list -> int **)

let calls_live_bytes src_bytes tgt_bytes cs =
  list_max (map (call_live src_bytes tgt_bytes) cs)

(** val live_bytes : mesh -> int -> ty -> ty -> plan -> int **)

let live_bytes m elem src tgt p =
  calls_live_bytes (( * ) (local_size m src) elem)
    (( * ) (local_size m tgt) elem) (lower m elem src p)

type 'a buffers = buffer -> 'a state

(** val write_buffer : 'a1 buffers -> buffer -> 'a1 state -> 'a1 buffers **)

let write_buffer bs b s b' =
  if buffer_beq b' b then s else bs b'

(** val call_move : mesh -> call -> 'a1 state -> 'a1 state **)

let call_move m c s =
  match c.cl_op with
  | Some k -> exec_step m c.cl_ty k s
  | None -> s

(** val run_call : mesh -> 'a1 buffers -> call -> 'a1 buffers **)

let run_call m bs c =
  write_buffer bs c.cl_out (call_move m c (bs c.cl_in))

(** val interp : mesh -> call list -> 'a1 buffers -> 'a1 buffers **)

let interp m cs bs =
  fold_left (run_call m) cs bs

(** val initial_buffers : 'a1 state -> 'a1 state -> 'a1 buffers **)

let initial_buffers src other = function
| BSrc -> src
| _ -> other

(** val group_index : int -> (int * int) -> int **)

let group_index r g =
  (fun a b -> if b = 0 then a else a mod b)
    ((fun a b -> if b = 0 then 0 else a / b) r (fst g)) (snd g)

(** val group_member : int -> (int * int) -> int -> int **)

let group_member r g k =
  (+)
    ((fun (a : int) b -> if a >= b then a - b else 0) r
      (( * ) (group_index r g) (fst g))) (( * ) k (fst g))

(** val rank_wire : call -> int -> int list -> int * int list **)

let rank_wire c r l =
  let shape = c.cl_shape in
  (match c.cl_op with
   | Some c0 ->
     (match c0 with
      | DynSlice (d, _) ->
        (match c.cl_group with
         | Some g ->
           (r,
             (upd l d
               ((+) (nth d l 0)
                 (( * ) (group_index r g)
                   ((fun a b -> if b = 0 then 0 else a / b) (nth d shape 0)
                     (snd g))))))
         | None -> (r, l))
      | AllGather d ->
        (match c.cl_group with
         | Some g ->
           let n = nth d shape 0 in
           ((group_member r g
              ((fun a b -> if b = 0 then 0 else a / b) (nth d l 0) n)),
           (upd l d ((fun a b -> if b = 0 then a else a mod b) (nth d l 0) n)))
         | None -> (r, l))
      | AllToAll (s, u) ->
        (match c.cl_group with
         | Some g ->
           let ns = nth s shape 0 in
           ((group_member r g
              ((fun a b -> if b = 0 then 0 else a / b) (nth s l 0) ns)),
           (upd
             (upd l s
               ((fun a b -> if b = 0 then a else a mod b) (nth s l 0) ns)) u
             ((+)
               (( * ) (group_index r g)
                 ((fun a b -> if b = 0 then 0 else a / b) (nth u shape 0)
                   (snd g))) (nth u l 0))))
         | None -> (r, l))
      | AllPermute _ -> ((nth r c.cl_recv_from 0), l))
   | None -> (r, l))

(** val run_call_rank : 'a1 buffers -> call -> 'a1 buffers **)

let run_call_rank bs c =
  write_buffer bs c.cl_out (fun r l ->
    let (r', l') = rank_wire c r l in bs c.cl_in r' l')

(** val interp_rank : call list -> 'a1 buffers -> 'a1 buffers **)

let interp_rank cs bs =
  fold_left run_call_rank cs bs

type xcall = { xc_from : layout; xc_to : layout;
               xc_recv : (int -> (int * box) list) }

(** val lower_exchange : layout -> layout -> xcall **)

let lower_exchange s t0 =
  { xc_from = s; xc_to = t0; xc_recv = (recv_messages s t0) }

(** val message_wire : xcall -> wire_map **)

let message_wire x r l =
  match pl_box x.xc_to r with
  | Some tb ->
    let i = box_global tb l in
    (match find (fun msg -> box_has (snd msg) i) (x.xc_recv r) with
     | Some p ->
       let (s, _) = p in
       (s,
       (match pl_box x.xc_from s with
        | Some sb -> box_local sb i
        | None -> i))
     | None -> (r, l))
  | None -> (r, l)

type program =
| Calls of mesh * call list
| OneExchange of xcall
| Staged of int * program * program

(** val lower_splan : int -> layout -> layout -> splan -> program **)

let rec lower_splan elem s t0 = function
| ByCollectives (rf, p) ->
  let m = refine_mesh rf (ly_m s) in
  Calls (m, (lower m elem (refine_ty rf s.ly_ty) p))
| ByExchange -> OneExchange (lower_exchange s t0)
| ByThen (mid, a, b) ->
  Staged ((( * ) (largest_box mid) elem), (lower_splan elem s mid a),
    (lower_splan elem mid t0 b))

(** val run_program : program -> 'a1 buffers -> 'a1 buffers **)

let rec run_program pg bs =
  match pg with
  | Calls (m, cs) -> interp m cs bs
  | OneExchange x ->
    write_buffer bs BDst (run_wire (message_wire x) (bs BSrc))
  | Staged (_, first, second) ->
    let mid = run_program first bs BDst in
    write_buffer (run_program second (initial_buffers mid (bs BDst))) BSrc
      (bs BSrc)

(** val box_bytes : layout -> int -> int -> int **)

let box_bytes l elem w =
  match pl_box l w with
  | Some b -> ( * ) (box_size b) elem
  | None -> 0

(** val exchange_live : int -> layout -> layout -> int -> int **)

let exchange_live elem s t0 w =
  (+) (box_bytes s elem w) (box_bytes t0 elem w)

(** val exchange_live_bytes : int -> layout -> layout -> int **)

let exchange_live_bytes elem s t0 =
  ( * ) ((+) (fst (largest_boxes s t0)) (snd (largest_boxes s t0))) elem

(** val splan_live_bytes : int -> layout -> layout -> splan -> int **)

let rec splan_live_bytes elem s t0 = function
| ByCollectives (rf, p) ->
  live_bytes (refine_mesh rf (ly_m s)) elem (refine_ty rf s.ly_ty)
    (refine_ty rf t0.ly_ty) p
| ByExchange -> exchange_live_bytes elem s t0
| ByThen (mid, a, b) ->
  (fun (a : int) b -> if a >= b then a else b)
    ((+) (splan_live_bytes elem s mid a) (( * ) (largest_box t0) elem))
    ((+) (splan_live_bytes elem mid t0 b) (( * ) (largest_box s) elem))

(** val program_workspace_bytes : program -> int **)

let rec program_workspace_bytes = function
| Calls (_, cs) -> workspace_bytes cs
| OneExchange _ -> 0
| Staged (n, first, second) ->
  (+) n
    ((fun (a : int) b -> if a >= b then a else b)
      (program_workspace_bytes first) (program_workspace_bytes second))

type sbuffer =
| SSrc
| SRed0
| SRed1
| SDst

(** val sbuffer_beq : sbuffer -> sbuffer -> bool **)

let sbuffer_beq x y =
  match x with
  | SSrc -> (match y with
             | SSrc -> true
             | _ -> false)
  | SRed0 -> (match y with
              | SRed0 -> true
              | _ -> false)
  | SRed1 -> (match y with
              | SRed1 -> true
              | _ -> false)
  | SDst -> (match y with
             | SDst -> true
             | _ -> false)

(** val next_red : sbuffer -> sbuffer **)

let next_red = function
| SRed0 -> SRed1
| _ -> SRed0

(** val in_red : sbuffer -> bool **)

let in_red = function
| SSrc -> false
| SDst -> false
| _ -> true

type rcall = { rc_step : sum_step; rc_fill : fill; rc_pty : pty;
               rc_shape : int list; rc_group : (int * int); rc_in : sbuffer;
               rc_out : sbuffer; rc_in_bytes : int; rc_out_bytes : int;
               rc_scratch : int }

(** val sum_step_axis : sum_step -> axis **)

let sum_step_axis = function
| ReduceScatter (_, a) -> a
| AllReduce a -> a
| AddPending a -> a

(** val reduction_scratch : int list -> sum_step -> int -> int -> int **)

let reduction_scratch shape k size elem =
  let n = prod0 shape in
  if (fun (a : int) b -> a <= b) size (Stdlib.Int.succ 0)
  then 0
  else (match k with
        | ReduceScatter (d, _) ->
          if (fun (a : int) b -> a < b) d (length shape)
          then ( * ) n elem
          else 0
        | AllReduce _ ->
          ( * )
            (( * ) size
              ((fun (a : int) b -> if a >= b then a else b)
                ((fun a b -> if b = 0 then 0 else a / b) n size)
                ((fun a b -> if b = 0 then a else a mod b) n size))) elem
        | AddPending _ -> 0)

(** val sum_call :
    mesh -> int -> fill -> pty -> pty -> sum_step -> sbuffer -> sbuffer ->
    rcall **)

let sum_call m elem fl p p' k inb outb =
  let group = axis_group m (sum_step_axis k) in
  { rc_step = k; rc_fill = fl; rc_pty = p; rc_shape =
  (local_shape m (fst p)); rc_group = group; rc_in = inb; rc_out = outb;
  rc_in_bytes = (( * ) (local_size m (fst p)) elem); rc_out_bytes =
  (( * ) (local_size m (fst p')) elem); rc_scratch =
  (reduction_scratch (local_shape m (fst p)) k (snd group) elem) }

(** val lower_reductions :
    mesh -> int -> fill -> pty -> sum_step list -> sbuffer -> rcall list **)

let rec lower_reductions m elem fl p ks inb =
  match ks with
  | [] -> []
  | k :: ks' ->
    (match sum_step_type m p k with
     | OK p' ->
       let outb = next_red inb in
       (sum_call m elem fl p p' k inb outb) :: (lower_reductions m elem fl p'
                                                 ks' outb)
     | Error _ -> [])

(** val lower_additions :
    mesh -> int -> fill -> pty -> sum_step list -> rcall list **)

let rec lower_additions m elem fl p = function
| [] -> []
| k :: ks' ->
  (match sum_step_type m p k with
   | OK p' ->
     (sum_call m elem fl p p' k SDst SDst) :: (lower_additions m elem fl p'
                                                ks')
   | Error _ -> [])

(** val reductions_out : rcall list -> sbuffer **)

let reductions_out rs =
  last (map (fun r -> r.rc_out) rs) SSrc

type sum_program = { sg_mesh : mesh; sg_pre : rcall list;
                     sg_coll_mesh : mesh; sg_calls : call list;
                     sg_post : rcall list }

(** val avg_divisor : sum_program -> int **)

let avg_divisor pg =
  prod0 (map (fun c -> snd c.rc_group) pg.sg_pre)

(** val lower_sums :
    int -> fill -> layout -> axis list -> layout -> sum_step list ->
    refinement -> plan -> sum_step list -> sum_program **)

let lower_sums elem fl s ps t0 pre rf p post =
  let m = ly_m s in
  let p1 = reduced m (s.ly_ty, ps) pre in
  let m' = refine_mesh rf m in
  { sg_mesh = m; sg_pre =
  (lower_reductions m elem fl (s.ly_ty, ps) pre SSrc); sg_coll_mesh = m';
  sg_calls = (lower m' elem (refine_ty rf (fst p1)) p); sg_post =
  (lower_additions m elem fl (t0.ly_ty, (snd p1)) post) }

(** val red_written : sbuffer -> rcall -> int **)

let red_written b c =
  if sbuffer_beq c.rc_out b then c.rc_out_bytes else 0

(** val red0_bytes : sum_program -> int **)

let red0_bytes pg =
  list_max (map (red_written SRed0) pg.sg_pre)

(** val red1_bytes : sum_program -> int **)

let red1_bytes pg =
  list_max (map (red_written SRed1) pg.sg_pre)

(** val red_scratch_bytes : sum_program -> int **)

let red_scratch_bytes pg =
  list_max (map (fun r -> r.rc_scratch) pg.sg_pre)

(** val red_scratch_offset : sum_program -> int **)

let red_scratch_offset pg =
  (+) (red0_bytes pg) (red1_bytes pg)

(** val collectives_offset : sum_program -> int **)

let collectives_offset pg =
  (+) (red_scratch_offset pg) (red_scratch_bytes pg)

(** val sum_workspace_bytes : sum_program -> int **)

let sum_workspace_bytes pg =
  (+) (collectives_offset pg) (workspace_bytes pg.sg_calls)

(** val rcall_live : int -> int -> rcall -> int **)

let rcall_live src_bytes tgt_bytes c =
  (+)
    ((+)
      ((+) ((+) src_bytes tgt_bytes)
        (if in_red c.rc_in then c.rc_in_bytes else 0))
      (if in_red c.rc_out then c.rc_out_bytes else 0)) c.rc_scratch

(** val reduced_bytes : sum_program -> int **)

let reduced_bytes pg =
  match rev pg.sg_pre with
  | [] -> 0
  | c :: _ -> c.rc_out_bytes

(** val coll_live : sum_program -> int -> int -> call -> int **)

let coll_live pg src_bytes tgt_bytes c =
  (+)
    ((+)
      ((+) ((+) ((+) src_bytes (reduced_bytes pg)) tgt_bytes)
        (if in_workspace c.cl_in then c.cl_in_bytes else 0))
      (if in_workspace c.cl_out then c.cl_out_bytes else 0)) c.cl_scratch

(** val sum_live_bytes : sum_program -> int -> int -> int **)

let sum_live_bytes pg src_bytes tgt_bytes =
  list_max
    (app (map (rcall_live src_bytes tgt_bytes) (app pg.sg_pre pg.sg_post))
      (map (coll_live pg src_bytes tgt_bytes) pg.sg_calls))

type 'p costed = { cs_index : int; cs_plan : 'p; cs_steps_ns : int list;
                   cs_time_ns : int; cs_live_bytes : int;
                   cs_alloc_bytes : int; cs_traffic : int; cs_launches : 
                   int }

(** val cost_list :
    (int -> 'a1 -> 'a1 costed option) -> int -> 'a1 list -> 'a1 costed list **)

let rec cost_list cost i = function
| [] -> []
| p :: ps' ->
  (match cost i p with
   | Some c -> c :: (cost_list cost (Stdlib.Int.succ i) ps')
   | None -> cost_list cost (Stdlib.Int.succ i) ps')

(** val lex_lt : int list -> int list -> bool **)

let rec lex_lt a b =
  match a with
  | [] -> false
  | x :: a' ->
    (match b with
     | [] -> false
     | y :: b' ->
       (||) ((fun (a : int) b -> a < b) x y)
         ((&&) ((fun (a : int) b -> a = b) x y) (lex_lt a' b')))

(** val cheaper : 'a1 costed -> 'a1 costed -> bool **)

let cheaper a b =
  lex_lt (a.cs_time_ns :: (a.cs_traffic :: (a.cs_launches :: [])))
    (b.cs_time_ns :: (b.cs_traffic :: (b.cs_launches :: [])))

(** val least : 'a1 costed -> 'a1 costed list -> 'a1 costed **)

let least c cs =
  fold_left (fun best0 c' -> if cheaper c' best0 then c' else best0) cs c

(** val fits : int option -> 'a1 costed -> bool **)

let fits budget c =
  match budget with
  | Some b -> (fun (a : int) b -> a <= b) c.cs_alloc_bytes b
  | None -> true

type choose_error =
| NoCandidate
| BelowMinimum of int

type 'p choice = { ch_best : 'p costed; ch_slower : 'p costed list;
                   ch_over_budget : 'p costed list }

(** val choose_among :
    int option -> 'a1 costed list -> (choose_error, 'a1 choice) res **)

let choose_among budget all =
  match filter (fits budget) all with
  | [] ->
    (match all with
     | [] -> Error NoCandidate
     | c :: cs ->
       Error (BelowMinimum
         (fold_left (fun (a : int) b -> if a <= b then a else b)
           (map (fun c0 -> c0.cs_alloc_bytes) cs) c.cs_alloc_bytes)))
  | c :: cs ->
    let best0 = least c cs in
    OK { ch_best = best0; ch_slower =
    (filter (fun c' ->
      negb ((fun (a : int) b -> a = b) c'.cs_index best0.cs_index)) (c :: cs));
    ch_over_budget = (filter (fun c' -> negb (fits budget c')) all) }

type link = { lk_latency_ns : int; lk_bytes_per_us : int }

type profile = { pf_same_host : link; pf_across_hosts : link;
                 pf_copy_bytes_per_us : int; pf_single_copy : link option }

type hosts =
| RanksPerHost of int
| HostList of int list

(** val host_of : hosts -> int -> int **)

let host_of h r =
  match h with
  | RanksPerHost n -> (fun a b -> if b = 0 then 0 else a / b) r n
  | HostList hs -> nth r hs 0

(** val transfer_ns : int -> int -> int **)

let transfer_ns bytes_per_us bytes =
  (+)
    (( * ) ((fun a b -> if b = 0 then 0 else a / b) bytes bytes_per_us)
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      0)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
    ((fun a b -> if b = 0 then 0 else a / b)
      (( * ) ((fun a b -> if b = 0 then a else a mod b) bytes bytes_per_us)
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
        0)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
      bytes_per_us)

type route =
| Local
| SameHost
| AcrossHosts

(** val route_between : hosts -> int -> int -> route **)

let route_between h r from =
  if (fun (a : int) b -> a = b) from r
  then Local
  else if (fun (a : int) b -> a = b) (host_of h from) (host_of h r)
       then SameHost
       else AcrossHosts

type batch = (route * int) * int

(** val batch_ns : profile -> batch -> int **)

let batch_ns pf = function
| (p, bytes) ->
  let (rt, n) = p in
  ( * ) n
    (match rt with
     | Local -> transfer_ns pf.pf_copy_bytes_per_us bytes
     | SameHost ->
       (+) pf.pf_same_host.lk_latency_ns
         (transfer_ns pf.pf_same_host.lk_bytes_per_us bytes)
     | AcrossHosts ->
       (+) pf.pf_across_hosts.lk_latency_ns
         (transfer_ns pf.pf_across_hosts.lk_bytes_per_us bytes))

(** val rank_ns : profile -> batch list -> int **)

let rank_ns pf bs =
  list_sum (map (batch_ns pf) bs)

(** val members_on_host : hosts -> int -> (int * int) -> int **)

let members_on_host h r g = match g with
| (stride, size) ->
  (match h with
   | RanksPerHost n ->
     let base =
       (fun (a : int) b -> if a >= b then a - b else 0) r
         (( * ) (group_index r g) stride)
     in
     let lo = ( * ) ((fun a b -> if b = 0 then 0 else a / b) r n) n in
     let first =
       (fun a b -> if b = 0 then 0 else a / b)
         ((fun (a : int) b -> if a >= b then a - b else 0)
           ((+) ((fun (a : int) b -> if a >= b then a - b else 0) lo base)
             stride) (Stdlib.Int.succ 0)) stride
     in
     let past =
       (fun a b -> if b = 0 then 0 else a / b)
         ((fun (a : int) b -> if a >= b then a - b else 0)
           ((+)
             ((fun (a : int) b -> if a >= b then a - b else 0) ((+) lo n)
               base) stride) (Stdlib.Int.succ 0)) stride
     in
     (fun (a : int) b -> if a >= b then a - b else 0)
       ((fun (a : int) b -> if a <= b then a else b) size past)
       ((fun (a : int) b -> if a <= b then a else b) size first)
   | HostList _ ->
     length
       (filter (fun k ->
         (fun (a : int) b -> a = b) (host_of h (group_member r g k))
           (host_of h r)) (seq 0 size)))

(** val scratch_copy : int -> batch list **)

let scratch_copy n =
  if (fun (a : int) b -> a = b) n 0
  then []
  else ((Local, (Stdlib.Int.succ 0)), n) :: []

(** val group_batches : hosts -> int -> (int * int) -> int -> batch list **)

let group_batches h r g bytes =
  let same = members_on_host h r g in
  ((Local, (Stdlib.Int.succ 0)), bytes) :: (((SameHost,
  ((fun (a : int) b -> if a >= b then a - b else 0) same (Stdlib.Int.succ 0))),
  bytes) :: (((AcrossHosts,
  ((fun (a : int) b -> if a >= b then a - b else 0) (snd g) same)),
  bytes) :: []))

(** val call_batches : hosts -> bool -> call -> int -> int -> batch list **)

let call_batches h direct c r from =
  let packing = if direct then [] else scratch_copy c.cl_scratch in
  (match c.cl_op with
   | Some c0 ->
     (match c0 with
      | DynSlice (_, _) ->
        ((Local, (Stdlib.Int.succ 0)), c.cl_out_bytes) :: []
      | AllGather _ ->
        (match c.cl_group with
         | Some g -> app (group_batches h r g c.cl_in_bytes) packing
         | None -> [])
      | AllToAll (_, _) ->
        (match c.cl_group with
         | Some g ->
           app
             (group_batches h r g
               ((fun a b -> if b = 0 then 0 else a / b) c.cl_in_bytes (snd g)))
             packing
         | None -> [])
      | AllPermute _ ->
        (((route_between h r from), (Stdlib.Int.succ 0)), c.cl_in_bytes) :: [])
   | None -> ((Local, (Stdlib.Int.succ 0)), c.cl_in_bytes) :: [])

(** val max_along :
    (int -> int -> int) -> int -> int -> int list -> int -> int **)

let rec max_along f r n table acc =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> acc)
    (fun n' ->
    match table with
    | [] ->
      max_along f (Stdlib.Int.succ r) n' []
        ((fun (a : int) b -> if a >= b then a else b) acc (f r r))
    | from :: rest ->
      max_along f (Stdlib.Int.succ r) n' rest
        ((fun (a : int) b -> if a >= b then a else b) acc (f r from)))
    n

(** val exchange_batches :
    hosts -> bool -> rank_table -> rank_table -> int -> xcall -> int -> batch
    list **)

let exchange_batches h spanned tS tT elem x r =
  let s = x.xc_from in
  let t0 = x.xc_to in
  if spanned
  then map (fun pat ->
         let (from, cell) = pat in
         (((route_between h r from), (Stdlib.Int.succ 0)),
         (( * ) (box_size cell) elem))) (x.xc_recv r)
  else (match box_in t0 tT r with
        | Some tb ->
          map (fun cell ->
            (((if has_opt (box_in s tS r) (map fst cell)
               then Local
               else SameHost), (Stdlib.Int.succ 0)),
            (( * ) (box_size cell) elem)))
            (cell_boxes
              (dims_cuts tb (map (block_size (ly_m s)) s.ly_ty)
                (map (block_size (ly_m t0)) t0.ly_ty)))
        | None -> [])

(** val cut_runs : int -> int -> int -> int -> int -> (int * int) list **)

let rec cut_runs fuel lo hi bs bt =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> [])
    (fun f ->
    if (fun (a : int) b -> a < b) lo hi
    then let whole =
           (fun a b -> if b = 0 then 0 else a / b)
             ((fun (a : int) b -> if a >= b then a - b else 0)
               ((fun (a : int) b -> if a <= b then a else b) hi
                 (( * ) (Stdlib.Int.succ
                   ((fun a b -> if b = 0 then 0 else a / b) lo bt)) bt)) lo)
             bs
         in
         if (&&)
              ((fun (a : int) b -> a = b)
                ((fun a b -> if b = 0 then a else a mod b) lo bs) 0)
              ((fun (a : int) b -> a <= b) (Stdlib.Int.succ 0) whole)
         then (bs, whole) :: (cut_runs f ((+) lo (( * ) whole bs)) hi bs bt)
         else let next =
                (fun (a : int) b -> if a <= b then a else b) hi
                  ((fun (a : int) b -> if a <= b then a else b)
                    (( * ) (Stdlib.Int.succ
                      ((fun a b -> if b = 0 then 0 else a / b) lo bs)) bs)
                    (( * ) (Stdlib.Int.succ
                      ((fun a b -> if b = 0 then 0 else a / b) lo bt)) bt))
              in
              (((fun (a : int) b -> if a >= b then a - b else 0) next lo),
              (Stdlib.Int.succ 0)) :: (cut_runs f next hi bs bt)
    else [])
    fuel

(** val starts_in : int -> int -> int -> bool **)

let starts_in slo sn x =
  (&&) ((fun (a : int) b -> a <= b) slo x)
    ((fun (a : int) b -> a < b) x ((+) slo sn))

(** val clamp : int -> int -> int -> int **)

let clamp lo hi x =
  (fun (a : int) b -> if a >= b then a else b) lo
    ((fun (a : int) b -> if a <= b then a else b) hi x)

(** val cut_at : int -> int -> int -> int -> bool **)

let cut_at lo hi bs x =
  (||)
    ((||) ((fun (a : int) b -> a <= b) x lo)
      ((fun (a : int) b -> a <= b) hi x))
    ((fun (a : int) b -> a = b)
      ((fun a b -> if b = 0 then a else a mod b) x bs) 0)

type run = (int * bool) * int

(** val mark_runs : bool -> (int * int) list -> run list **)

let mark_runs inside0 rs =
  map (fun pat -> let (len, k) = pat in ((len, inside0), k)) rs

(** val dim_runs : (int * int) -> (int * int) -> int -> int -> run list **)

let dim_runs iv sv bs bt =
  let (lo, n) = iv in
  let (slo, sn) = sv in
  let hi = (+) lo n in
  let a = clamp lo hi slo in
  let b = clamp lo hi ((+) slo sn) in
  if (&&) (cut_at lo hi bs a) (cut_at lo hi bs b)
  then app
         (mark_runs false
           (cut_runs ((fun (a : int) b -> if a >= b then a - b else 0) a lo)
             lo a bs bt))
         (app
           (mark_runs true
             (cut_runs ((fun (a : int) b -> if a >= b then a - b else 0) b a)
               a b bs bt))
           (mark_runs false
             (cut_runs
               ((fun (a : int) b -> if a >= b then a - b else 0) hi b) b hi
               bs bt)))
  else map (fun piece0 -> (((snd piece0), (starts_in slo sn (fst piece0))),
         (Stdlib.Int.succ 0))) (cuts n lo hi bs bt)

(** val dims_runs : box -> box -> int list -> int list -> run list list **)

let rec dims_runs tb sb bss bts =
  match tb with
  | [] -> []
  | iv :: tb' ->
    (match sb with
     | [] -> []
     | sv :: sb' ->
       (match bss with
        | [] -> []
        | bs :: bss' ->
          (match bts with
           | [] -> []
           | bt :: bts' ->
             (dim_runs iv sv
               ((fun (a : int) b -> if a >= b then a else b) (Stdlib.Int.succ
                 0) bs)
               ((fun (a : int) b -> if a >= b then a else b) (Stdlib.Int.succ
                 0) bt)) :: (dims_runs tb' sb' bss' bts'))))

(** val runs_sum :
    (bool -> int -> int) -> bool -> int -> run list list -> int **)

let rec runs_sum cell_ns inside0 size = function
| [] -> cell_ns inside0 size
| rs :: rss' ->
  list_sum
    (map (fun pat ->
      let (y, k) = pat in
      let (len, i) = y in
      ( * ) k (runs_sum cell_ns ((&&) inside0 i) (( * ) size len) rss')) rs)

(** val exchange_cell_ns : profile -> bool -> int -> bool -> int -> int **)

let exchange_cell_ns pf spanned elem held cells =
  let bytes = ( * ) cells elem in
  if held
  then batch_ns pf ((Local, (Stdlib.Int.succ 0)), bytes)
  else if spanned
       then (fun (a : int) b -> if a >= b then a else b)
              (batch_ns pf ((SameHost, (Stdlib.Int.succ 0)), bytes))
              (batch_ns pf ((AcrossHosts, (Stdlib.Int.succ 0)), bytes))
       else batch_ns pf ((SameHost, (Stdlib.Int.succ 0)), bytes)

(** val exchange_rank_ns :
    profile -> bool -> rank_table -> rank_table -> int -> layout -> layout ->
    int -> int **)

let exchange_rank_ns pf spanned tS tT elem s t0 =
  let source = box_in s tS in
  let target = box_in t0 tT in
  let bss = map (block_size (ly_m s)) s.ly_ty in
  let bts = map (block_size (ly_m t0)) t0.ly_ty in
  (fun r ->
  match target r with
  | Some tb ->
    (match source r with
     | Some sb ->
       let held = true in
       runs_sum (exchange_cell_ns pf spanned elem) held (Stdlib.Int.succ 0)
         (dims_runs tb sb bss bts)
     | None ->
       let sb = map (fun _ -> (0, 0)) tb in
       let held = false in
       runs_sum (exchange_cell_ns pf spanned elem) held (Stdlib.Int.succ 0)
         (dims_runs tb sb bss bts))
  | None -> 0)

(** val spans_hosts : hosts -> int list -> bool **)

let spans_hosts h ws =
  existsb (fun w ->
    negb ((fun (a : int) b -> a = b) (host_of h w) (host_of h (hd 0 ws)))) ws

(** val max_over : int list -> (int -> int) -> int **)

let max_over ranks f =
  fold_left (fun acc r ->
    (fun (a : int) b -> if a >= b then a else b) acc (f r)) ranks 0

(** val without_single_copy : profile -> profile **)

let without_single_copy pf =
  { pf_same_host = pf.pf_same_host; pf_across_hosts = pf.pf_across_hosts;
    pf_copy_bytes_per_us = pf.pf_copy_bytes_per_us; pf_single_copy = None }

(** val single_copy_profile : profile -> profile **)

let single_copy_profile pf =
  match pf.pf_single_copy with
  | Some l ->
    { pf_same_host = l; pf_across_hosts = pf.pf_across_hosts;
      pf_copy_bytes_per_us = pf.pf_copy_bytes_per_us; pf_single_copy = None }
  | None -> pf

(** val has_single_copy : profile -> bool **)

let has_single_copy pf =
  match pf.pf_single_copy with
  | Some _ -> true
  | None -> false

(** val call_by_single_copy : hosts -> bool -> call -> int -> bool **)

let call_by_single_copy h one_host c r =
  match c.cl_op with
  | Some c0 ->
    (match c0 with
     | DynSlice (_, _) -> false
     | AllPermute _ -> one_host
     | _ ->
       (match c.cl_group with
        | Some g -> (fun (a : int) b -> a = b) (members_on_host h r g) (snd g)
        | None -> false))
  | None -> false

(** val call_rank_ns :
    profile -> hosts -> bool -> call -> int -> int -> int **)

let call_rank_ns pf h one_host c r from =
  if (&&) (has_single_copy pf) (call_by_single_copy h one_host c r)
  then rank_ns (single_copy_profile pf) (call_batches h true c r from)
  else rank_ns pf (call_batches h false c r from)

(** val program_steps_ns : profile -> hosts -> int -> program -> int list **)

let rec program_steps_ns pf h elem = function
| Calls (m, cs) ->
  let one_host = negb (spans_hosts h (seq 0 (mesh_size m))) in
  map (fun c ->
    max_along (call_rank_ns pf h one_host c) 0 (mesh_size m) c.cl_recv_from 0)
    cs
| OneExchange x ->
  let spanned =
    spans_hosts h (app x.xc_from.ly_mesh.pm_ranks x.xc_to.ly_mesh.pm_ranks)
  in
  let tS = rank_table_of x.xc_from.ly_mesh.pm_ranks in
  let tT = rank_table_of x.xc_to.ly_mesh.pm_ranks in
  (max_over x.xc_to.ly_mesh.pm_ranks
    (exchange_rank_ns (single_copy_profile pf) spanned tS tT elem x.xc_from
      x.xc_to)) :: []
| Staged (_, first, second) ->
  app (program_steps_ns pf h elem first)
    (program_steps_ns (without_single_copy pf) h elem second)

(** val predicted_ns :
    profile -> hosts -> int -> layout -> layout -> splan -> int **)

let predicted_ns pf h elem s t0 sp =
  list_sum (program_steps_ns pf h elem (lower_splan elem s t0 sp))

(** val collective_candidates : layout -> layout -> splan list **)

let collective_candidates s t0 =
  if even_problem s t0
  then let m = ly_m s in
       flat_map (fun pat ->
         let (rf, p) = pat in
         (match assess m s.ly_ty t0.ly_ty rf p with
          | Some _ -> (ByCollectives (rf, p)) :: []
          | None -> [])) (candidates m s.ly_ty t0.ly_ty)
  else []

(** val moving_axes : mesh -> axis list **)

let moving_axes m =
  filter (fun x ->
    (fun (a : int) b -> a < b) (Stdlib.Int.succ 0) (axis_size m x))
    (mesh_axes m)

(** val with_ty : layout -> ty -> layout **)

let with_ty l t0 =
  { ly_mesh = l.ly_mesh; ly_ty = t0 }

(** val exchange_then_gather : layout -> splan list **)

let exchange_then_gather t0 =
  flat_map (fun d ->
    flat_map (fun x ->
      match step_type (ly_m t0) t0.ly_ty (DynSlice (d, x)) with
      | OK mid ->
        (ByThen ((with_ty t0 mid), ByExchange, (ByCollectives ([],
          ((AllGather d) :: []))))) :: []
      | Error _ -> []) (moving_axes (ly_m t0))) (seq 0 (length t0.ly_ty))

(** val collective_then_exchange : layout -> layout -> splan list **)

let collective_then_exchange s t0 =
  let dims = seq 0 (length s.ly_ty) in
  flat_map (fun k ->
    match step_type (ly_m s) s.ly_ty k with
    | OK mid ->
      (ByThen ((with_ty t0 mid), (ByCollectives ([], (k :: []))),
        ByExchange)) :: []
    | Error _ -> [])
    (app
      (flat_map (fun d ->
        map (fun x -> DynSlice (d, x)) (moving_axes (ly_m s))) dims)
      (flat_map (fun s0 -> map (fun x -> AllToAll (s0, x)) dims) dims))

(** val hybrid_candidates : layout -> layout -> splan list **)

let hybrid_candidates s t0 =
  app (exchange_then_gather t0) (collective_then_exchange s t0)

(** val strategy_candidates :
    bool -> strategy -> layout -> layout -> splan list **)

let strategy_candidates hybrids s s0 t0 =
  match s with
  | StratAuto ->
    app (collective_candidates s0 t0)
      (app (if layouts_wf s0 t0 then ByExchange :: [] else [])
        (if hybrids then hybrid_candidates s0 t0 else []))
  | _ -> (match plan_with s s0 t0 with
          | Some sp -> sp :: []
          | None -> [])

(** val splan_launches : splan -> int **)

let rec splan_launches = function
| ByCollectives (_, p) -> length (filter (fun k -> negb (is_slice k)) p)
| ByExchange -> Stdlib.Int.succ 0
| ByThen (_, a, b) -> (+) (splan_launches a) (splan_launches b)

(** val program_live_bytes :
    int -> layout -> layout -> splan -> program -> int **)

let program_live_bytes elem s t0 sp pg =
  match sp with
  | ByCollectives (rf, _) ->
    (match pg with
     | Calls (m, cs) ->
       calls_live_bytes (( * ) (local_size m (refine_ty rf s.ly_ty)) elem)
         (( * ) (local_size m (refine_ty rf t0.ly_ty)) elem) cs
     | _ -> splan_live_bytes elem s t0 sp)
  | _ -> splan_live_bytes elem s t0 sp

(** val program_alloc_bytes : int -> layout -> layout -> program -> int **)

let program_alloc_bytes elem s t0 pg =
  (+)
    (( * ) ((+) (fst (largest_boxes s t0)) (snd (largest_boxes s t0))) elem)
    (program_workspace_bytes pg)

(** val splan_alloc_bytes : int -> layout -> layout -> splan -> int **)

let splan_alloc_bytes elem s t0 sp =
  program_alloc_bytes elem s t0 (lower_splan elem s t0 sp)

(** val cost_candidate :
    profile -> hosts -> int -> layout -> layout -> int -> splan -> splan
    costed option **)

let cost_candidate pf h elem s t0 i sp =
  match xcheck s t0 sp with
  | OK rep ->
    let pg = lower_splan elem s t0 sp in
    let steps = program_steps_ns pf h elem pg in
    Some { cs_index = i; cs_plan = sp; cs_steps_ns = steps; cs_time_ns =
    (list_sum steps); cs_live_bytes = (program_live_bytes elem s t0 sp pg);
    cs_alloc_bytes = (program_alloc_bytes elem s t0 pg); cs_traffic =
    (max_over t0.ly_mesh.pm_ranks rep.xr_recv); cs_launches =
    (splan_launches sp) }
  | Error _ -> None

(** val cost_all :
    profile -> hosts -> int -> layout -> layout -> int -> splan list -> splan
    costed list **)

let cost_all pf h elem s t0 =
  cost_list (cost_candidate pf h elem s t0)

(** val choose :
    bool -> profile -> hosts -> int -> int option -> strategy -> layout ->
    layout -> (choose_error, splan choice) res **)

let choose hybrids pf h elem budget s s0 t0 =
  choose_among budget
    (cost_all pf h elem s0 t0 0 (strategy_candidates hybrids s s0 t0))

type sx_piece = { xp_cell : box; xp_senders : int list }

(** val group_ranks : layout -> axis list -> int -> int list **)

let group_ranks s ps =
  let table = rank_table_of s.ly_mesh.pm_ranks in
  (fun s0 ->
  match table_index table s0 with
  | Some k ->
    map (world_rank s.ly_mesh)
      (group_members (ly_m s) ps (device_of_rank (ly_m s) k))
  | None -> [])

(** val sumx_pieces :
    layout -> axis list -> layout -> axis list -> int -> sx_piece list **)

let sumx_pieces s ps t0 pt =
  let senders = group_ranks s ps in
  (fun r ->
  if designated t0 pt r
  then map (fun msg -> { xp_cell = (snd msg); xp_senders =
         (senders (fst msg)) }) (recv_messages s t0 r)
  else [])

(** val sumx_sends :
    layout -> axis list -> layout -> axis list -> int -> (int * box) list **)

let sumx_sends s ps t0 pt =
  let pieces = sumx_pieces s ps t0 pt in
  (fun s0 ->
  flat_map (fun r ->
    if (fun (a : int) b -> a = b) r s0
    then []
    else map (fun p -> (r, p.xp_cell))
           (filter (fun p -> memb s0 p.xp_senders) (pieces r)))
    t0.ly_mesh.pm_ranks)

(** val sumx_array_bytes : int -> layout -> int -> int **)

let sumx_array_bytes elem t0 r =
  ( * ) (box_size_at t0 r) elem

(** val sumx_staging_bytes :
    int -> layout -> axis list -> layout -> axis list -> int -> int **)

let sumx_staging_bytes elem s ps t0 pt r =
  if designated t0 pt r
  then ( * ) (( * ) (group_size (ly_m s) ps) (box_size_at t0 r)) elem
  else 0

(** val sumx_workspace_bytes :
    int -> layout -> axis list -> layout -> axis list -> int **)

let sumx_workspace_bytes elem s ps t0 pt =
  let g = group_size (ly_m s) ps in
  let size = target_box_size s t0 in
  let receives = receives_sum s t0 pt in
  list_max
    (map (fun r -> if receives r then ( * ) (( * ) g (size r)) elem else 0)
      t0.ly_mesh.pm_ranks)

(** val sumx_live :
    int -> layout -> axis list -> layout -> axis list -> int -> int **)

let sumx_live elem s ps t0 pt w =
  (+) ((+) (box_bytes s elem w) (box_bytes t0 elem w))
    (sumx_staging_bytes elem s ps t0 pt w)

(** val sumx_live_bytes : int -> layout -> axis list -> layout -> int **)

let sumx_live_bytes elem s ps t0 =
  ( * )
    ((+) (fst (largest_boxes s t0))
      (( * ) ((+) (Stdlib.Int.succ 0) (group_size (ly_m s) ps))
        (snd (largest_boxes s t0)))) elem

type sxcall = { sx_from : layout; sx_to : layout; sx_group_size : int;
                sx_designated : (int -> bool);
                sx_pieces : (int -> sx_piece list);
                sx_sends : (int -> (int * box) list);
                sx_array_bytes : (int -> int); sx_staging : (int -> int);
                sx_workspace_bytes : int }

(** val lower_sumx :
    int -> layout -> axis list -> layout -> axis list -> sxcall **)

let lower_sumx elem s ps t0 pt =
  { sx_from = s; sx_to = t0; sx_group_size = (group_size (ly_m s) ps);
    sx_designated = (designated t0 pt); sx_pieces = (sumx_pieces s ps t0 pt);
    sx_sends = (sumx_sends s ps t0 pt); sx_array_bytes =
    (sumx_array_bytes elem t0); sx_staging =
    (sumx_staging_bytes elem s ps t0 pt); sx_workspace_bytes =
    (sumx_workspace_bytes elem s ps t0 pt) }

(** val source_index : layout -> int -> int list -> int list **)

let source_index s s0 i =
  match pl_box s s0 with
  | Some sb -> box_local sb i
  | None -> i

(** val sumx_dst : cmonoid -> sxcall -> carrier state -> carrier state **)

let sumx_dst m x src r l =
  match pl_box x.sx_to r with
  | Some tb ->
    let i = box_global tb l in
    (match find (fun p -> box_has p.xp_cell i) (x.sx_pieces r) with
     | Some p ->
       msum m (map (fun s -> src s (source_index x.sx_from s i)) p.xp_senders)
     | None -> m.zero)
  | None -> src r l

type sum_lowered =
| SumCalls of sum_program
| SumExchangeCall of sxcall

(** val lower_sumplan :
    int -> fill -> layout -> axis list -> layout -> axis list -> sumplan ->
    sum_lowered **)

let lower_sumplan elem fl s ps t0 pt = function
| SumByCollectives (pre, rf, p, post) ->
  SumCalls (lower_sums elem fl s ps t0 pre rf p post)
| SumByExchange -> SumExchangeCall (lower_sumx elem s ps t0 pt)

(** val sumplan_live_bytes :
    int -> fill -> layout -> axis list -> layout -> axis list -> sumplan ->
    int **)

let sumplan_live_bytes elem fl s ps t0 pt sp =
  match lower_sumplan elem fl s ps t0 pt sp with
  | SumCalls pg ->
    sum_live_bytes pg (( * ) (local_size (ly_m s) s.ly_ty) elem)
      (( * ) (local_size (ly_m s) t0.ly_ty) elem)
  | SumExchangeCall _ -> sumx_live_bytes elem s ps t0

(** val sumplan_workspace_bytes : sum_lowered -> int **)

let sumplan_workspace_bytes = function
| SumCalls pg -> sum_workspace_bytes pg
| SumExchangeCall x -> x.sx_workspace_bytes

(** val staged_share : int -> int -> int -> int -> int **)

let staged_share w s r n =
  if (fun (a : int) b -> a = b) s r
  then 0
  else (+) (if (fun (a : int) b -> a = b) r w then n else 0)
         (if (fun (a : int) b -> a = b) s w then n else 0)

(** val receivers : layout -> int list **)

let receivers t0 =
  t0.ly_mesh.pm_ranks

(** val nccl_staging : layout -> layout -> int -> int **)

let nccl_staging s t0 w =
  list_sum
    (map (fun r ->
      list_sum
        (map (fun pat ->
          let (s0, c) = pat in staged_share w s0 r (box_size c))
          (recv_messages s t0 r))) (receivers t0))

type rank_counts =
| NoCounts
| Counts of int * rank_counts * rank_counts

(** val count_at : positive -> rank_counts -> int **)

let rec count_at k = function
| NoCounts -> 0
| Counts (h, e, o) ->
  (match k with
   | XI k' -> count_at k' o
   | XO k' -> count_at k' e
   | XH -> h)

(** val add_count : positive -> int -> rank_counts -> rank_counts **)

let rec add_count k n = function
| NoCounts ->
  (match k with
   | XI k' -> Counts (0, NoCounts, (add_count k' n NoCounts))
   | XO k' -> Counts (0, (add_count k' n NoCounts), NoCounts)
   | XH -> Counts (n, NoCounts, NoCounts))
| Counts (h, e, o) ->
  (match k with
   | XI k' -> Counts (h, e, (add_count k' n o))
   | XO k' -> Counts (h, (add_count k' n e), o)
   | XH -> Counts (((+) n h), e, o))

(** val staged_at : int -> rank_counts -> int **)

let staged_at w acc =
  count_at (Pos.of_succ_nat w) acc

(** val add_at : int -> int -> rank_counts -> rank_counts **)

let add_at w n acc =
  add_count (Pos.of_succ_nat w) n acc

(** val staged_messages : layout -> layout -> ((int * int) * int) list **)

let staged_messages s t0 =
  let h = spread_in (mesh_boxes s) (mesh_boxes t0) s in
  flat_map (fun r ->
    map (fun c -> (((h r (map fst c)), r), (box_size c))) (recv_cells s t0 r))
    (receivers t0)

(** val accumulate_staging :
    ((int * int) * int) list -> rank_counts -> rank_counts **)

let accumulate_staging msgs acc =
  fold_left (fun acc0 pat ->
    let (y, n) = pat in
    let (s, r) = y in
    if (fun (a : int) b -> a = b) s r
    then acc0
    else add_at s n (add_at r n acc0)) msgs acc

(** val exchange_ranks : layout -> layout -> int list **)

let exchange_ranks s t0 =
  app s.ly_mesh.pm_ranks t0.ly_mesh.pm_ranks

(** val nccl_workspace_bytes : int -> layout -> layout -> int **)

let nccl_workspace_bytes elem s t0 =
  let staged = accumulate_staging (staged_messages s t0) NoCounts in
  ( * ) (list_max (map (fun w -> staged_at w staged) (exchange_ranks s t0)))
    elem

(** val nccl_sumx_staging_bytes :
    int -> layout -> axis list -> layout -> axis list -> int -> int **)

let nccl_sumx_staging_bytes elem s ps t0 pt w =
  (+) (sumx_staging_bytes elem s ps t0 pt w)
    (( * )
      (list_sum
        (map (fun r ->
          list_sum
            (map (fun p ->
              list_sum
                (map (fun s0 -> staged_share w s0 r (box_size p.xp_cell))
                  p.xp_senders)) (sumx_pieces s ps t0 pt r))) (receivers t0)))
      elem)

(** val sumx_messages :
    layout -> axis list -> layout -> axis list -> ((int * int) * int) list **)

let sumx_messages s ps t0 pt =
  let h = spread_in (mesh_boxes s) (mesh_boxes t0) s in
  let senders = group_ranks s ps in
  flat_map (fun r ->
    if designated t0 pt r
    then flat_map (fun c ->
           map (fun s0 -> ((s0, r), (box_size c))) (senders (h r (map fst c))))
           (recv_cells s t0 r)
    else []) (receivers t0)

(** val nccl_sumx_workspace_bytes :
    int -> layout -> axis list -> layout -> axis list -> int **)

let nccl_sumx_workspace_bytes elem s ps t0 pt =
  let staged = accumulate_staging (sumx_messages s ps t0 pt) NoCounts in
  let g = group_size (ly_m s) ps in
  let size = target_box_size s t0 in
  let receives = receives_sum s t0 pt in
  list_max
    (map (fun w ->
      ( * )
        ((+) (if receives w then ( * ) g (size w) else 0)
          (staged_at w staged)) elem) (exchange_ranks s t0))

(** val rcall_batches : hosts -> rcall -> int -> batch list **)

let rcall_batches h c r =
  let g = c.rc_group in
  (match c.rc_step with
   | ReduceScatter (_, _) ->
     app (group_batches h r g c.rc_out_bytes) (scratch_copy c.rc_scratch)
   | AllReduce _ ->
     let block = (fun a b -> if b = 0 then 0 else a / b) c.rc_in_bytes (snd g)
     in
     app (group_batches h r g block)
       (app (group_batches h r g block) (scratch_copy c.rc_scratch))
   | AddPending _ -> ((Local, (Stdlib.Int.succ 0)), c.rc_out_bytes) :: [])

(** val rcall_ns : profile -> hosts -> mesh -> rcall -> int **)

let rcall_ns pf h m c =
  max_along (fun r _ -> rank_ns pf (rcall_batches h c r)) 0 (mesh_size m) [] 0

(** val sumx_batches : hosts -> int -> sxcall -> int -> batch list **)

let sumx_batches h elem x r =
  app
    (flat_map (fun p ->
      map (fun s -> (((route_between h r s), (Stdlib.Int.succ 0)),
        (( * ) (box_size p.xp_cell) elem))) p.xp_senders) (x.sx_pieces r))
    (scratch_copy (x.sx_staging r))

(** val sum_steps_ns : profile -> hosts -> int -> sum_lowered -> int list **)

let sum_steps_ns pf h elem = function
| SumCalls pg ->
  app (map (rcall_ns pf h pg.sg_mesh) pg.sg_pre)
    (app (program_steps_ns pf h elem (Calls (pg.sg_coll_mesh, pg.sg_calls)))
      (map (rcall_ns pf h pg.sg_mesh) pg.sg_post))
| SumExchangeCall x ->
  (max_over x.sx_to.ly_mesh.pm_ranks (fun r ->
    rank_ns (single_copy_profile pf) (sumx_batches h elem x r))) :: []

(** val sum_predicted_ns :
    profile -> hosts -> int -> fill -> layout -> axis list -> layout -> axis
    list -> sumplan -> int **)

let sum_predicted_ns pf h elem fl s ps t0 pt sp =
  list_sum (sum_steps_ns pf h elem (lower_sumplan elem fl s ps t0 pt sp))

(** val plan_list : sumplan option -> sumplan list **)

let plan_list = function
| Some sp -> sp :: []
| None -> []

(** val sum_candidates :
    strategy -> layout -> axis list -> layout -> axis list -> sumplan list **)

let sum_candidates s s0 ps t0 pt =
  match s with
  | StratAuto ->
    app (plan_list (plan_sums StratCollectives s0 ps t0 pt))
      (plan_list (plan_sums StratExchange s0 ps t0 pt))
  | _ -> plan_list (plan_sums s s0 ps t0 pt)

(** val sum_launches : sumplan -> int **)

let sum_launches = function
| SumByCollectives (pre, rf, p, post) ->
  (+) ((+) (length pre) (splan_launches (ByCollectives (rf, p))))
    (length post)
| SumByExchange -> Stdlib.Int.succ 0

(** val sum_lowered_alloc_bytes :
    int -> layout -> layout -> sum_lowered -> int **)

let sum_lowered_alloc_bytes elem s t0 lw =
  (+)
    (( * ) ((+) (fst (largest_boxes s t0)) (snd (largest_boxes s t0))) elem)
    (sumplan_workspace_bytes lw)

(** val sumplan_alloc_bytes :
    int -> fill -> layout -> axis list -> layout -> axis list -> sumplan ->
    int **)

let sumplan_alloc_bytes elem fl s ps t0 pt sp =
  sum_lowered_alloc_bytes elem s t0 (lower_sumplan elem fl s ps t0 pt sp)

(** val scost_candidate :
    profile -> hosts -> int -> fill -> layout -> axis list -> layout -> axis
    list -> int -> sumplan -> sumplan costed option **)

let scost_candidate pf h elem fl s ps t0 pt i sp =
  match scheck s ps t0 pt sp with
  | OK rep ->
    let lw = lower_sumplan elem fl s ps t0 pt sp in
    let steps = sum_steps_ns pf h elem lw in
    Some { cs_index = i; cs_plan = sp; cs_steps_ns = steps; cs_time_ns =
    (list_sum steps); cs_live_bytes =
    (sumplan_live_bytes elem fl s ps t0 pt sp); cs_alloc_bytes =
    (sum_lowered_alloc_bytes elem s t0 lw); cs_traffic =
    (max_over (app s.ly_mesh.pm_ranks t0.ly_mesh.pm_ranks) rep.sm_recv);
    cs_launches = (sum_launches sp) }
  | Error _ -> None

(** val scost_all :
    profile -> hosts -> int -> fill -> layout -> axis list -> layout -> axis
    list -> int -> sumplan list -> sumplan costed list **)

let scost_all pf h elem fl s ps t0 pt =
  cost_list (scost_candidate pf h elem fl s ps t0 pt)

(** val choose_sums :
    profile -> hosts -> int -> fill -> int option -> strategy -> layout ->
    axis list -> layout -> axis list -> (choose_error, sumplan choice) res **)

let choose_sums pf h elem fl budget s s0 ps t0 pt =
  choose_among budget
    (scost_all pf h elem fl s0 ps t0 pt 0 (sum_candidates s s0 ps t0 pt))

type area =
| Buf
| Stage

(** val area_eqb : area -> area -> bool **)

let area_eqb a b =
  match a with
  | Buf -> (match b with
            | Buf -> true
            | Stage -> false)
  | Stage -> (match b with
              | Buf -> false
              | Stage -> true)

type place = { pl_rank : int; pl_area : area; pl_off : int }

type 'a memory = place -> 'a

(** val lin : int list -> int list -> int **)

let rec lin shape l =
  match shape with
  | [] -> 0
  | _ :: shape' ->
    (match l with
     | [] -> 0
     | i :: l' -> (+) (( * ) i (prod0 shape')) (lin shape' l'))

(** val delin : int list -> int -> int list **)

let rec delin shape q =
  match shape with
  | [] -> []
  | _ :: shape' ->
    ((fun a b -> if b = 0 then 0 else a / b) q (prod0 shape')) :: (delin
                                                                    shape'
                                                                    ((fun a b -> if b = 0 then a else a mod b)
                                                                    q
                                                                    (prod0
                                                                    shape')))

(** val held_size : layout -> int -> int **)

let held_size l w =
  match pl_box l w with
  | Some b -> box_size b
  | None -> 0

(** val buf_size : layout -> layout -> int -> int **)

let buf_size s t0 w =
  (fun (a : int) b -> if a >= b then a else b) (held_size s w)
    (held_size t0 w)

type move = { mv_from : place; mv_to : place; mv_len : int }

type round = move list

type schedule = round list

(** val shift : place -> int -> place **)

let shift x k =
  { pl_rank = x.pl_rank; pl_area = x.pl_area; pl_off = ((+) x.pl_off k) }

(** val in_run : place -> int -> place -> bool **)

let in_run x n y =
  (&&)
    ((&&)
      ((&&) ((fun (a : int) b -> a = b) x.pl_rank y.pl_rank)
        (area_eqb x.pl_area y.pl_area))
      ((fun (a : int) b -> a <= b) x.pl_off y.pl_off))
    ((fun (a : int) b -> a < b) y.pl_off ((+) x.pl_off n))

(** val round_source : round -> place -> place **)

let rec round_source rd y =
  match rd with
  | [] -> y
  | mv :: rd' ->
    if in_run mv.mv_to mv.mv_len y
    then shift mv.mv_from
           ((fun (a : int) b -> if a >= b then a - b else 0) y.pl_off
             mv.mv_to.pl_off)
    else round_source rd' y

(** val run_round : round -> 'a1 memory -> 'a1 memory **)

let run_round rd st y =
  st (round_source rd y)

(** val run_schedule : schedule -> 'a1 memory -> 'a1 memory **)

let rec run_schedule sc st =
  match sc with
  | [] -> st
  | rd :: sc' -> run_schedule sc' (run_round rd st)

(** val run_move : move -> 'a1 memory -> 'a1 memory **)

let run_move mv st y =
  if in_run mv.mv_to mv.mv_len y
  then st
         (shift mv.mv_from
           ((fun (a : int) b -> if a >= b then a - b else 0) y.pl_off
             mv.mv_to.pl_off))
  else st y

(** val run_moves : round -> 'a1 memory -> 'a1 memory **)

let rec run_moves rd st =
  match rd with
  | [] -> st
  | mv :: rd' -> run_moves rd' (run_move mv st)

(** val trace0 : schedule -> place -> place **)

let rec trace0 sc y =
  match sc with
  | [] -> y
  | rd :: sc' -> round_source rd (trace0 sc' y)

(** val crosses : move -> bool **)

let crosses mv =
  negb ((fun (a : int) b -> a = b) mv.mv_from.pl_rank mv.mv_to.pl_rank)

(** val rank_sends : round -> int -> move list **)

let rank_sends rd a =
  filter (fun mv ->
    (&&) (crosses mv) ((fun (a : int) b -> a = b) mv.mv_from.pl_rank a)) rd

(** val rank_recvs : round -> int -> move list **)

let rank_recvs rd b =
  filter (fun mv ->
    (&&) (crosses mv) ((fun (a : int) b -> a = b) mv.mv_to.pl_rank b)) rd

(** val received0 : schedule -> int -> int **)

let received0 sc w =
  list_sum
    (map (fun rd -> list_sum (map (fun m -> m.mv_len) (rank_recvs rd w))) sc)

(** val area_size : layout -> layout -> int -> place -> int **)

let area_size s t0 b x =
  match x.pl_area with
  | Buf -> buf_size s t0 x.pl_rank
  | Stage -> b

(** val ranks_of : layout -> layout -> int list **)

let ranks_of s t0 =
  app s.ly_mesh.pm_ranks t0.ly_mesh.pm_ranks

(** val move_ok0 : layout -> layout -> int -> move -> bool **)

let move_ok0 s t0 b mv =
  (&&)
    ((&&)
      ((&&) (memb mv.mv_from.pl_rank (ranks_of s t0))
        (memb mv.mv_to.pl_rank (ranks_of s t0)))
      ((fun (a : int) b -> a <= b) ((+) mv.mv_from.pl_off mv.mv_len)
        (area_size s t0 b mv.mv_from)))
    ((fun (a : int) b -> a <= b) ((+) mv.mv_to.pl_off mv.mv_len)
      (area_size s t0 b mv.mv_to))

(** val runs_meet : place -> int -> place -> int -> bool **)

let runs_meet x n y k =
  (&&)
    ((&&)
      ((&&) ((fun (a : int) b -> a = b) x.pl_rank y.pl_rank)
        (area_eqb x.pl_area y.pl_area))
      ((fun (a : int) b -> a < b) x.pl_off ((+) y.pl_off k)))
    ((fun (a : int) b -> a < b) y.pl_off ((+) x.pl_off n))

(** val writes_apart : round -> bool **)

let rec writes_apart = function
| [] -> true
| mv :: rd' ->
  (&&)
    (forallb (fun mv' ->
      negb (runs_meet mv.mv_to mv.mv_len mv'.mv_to mv'.mv_len)) rd')
    (writes_apart rd')

(** val round_apart : round -> bool **)

let round_apart rd =
  (&&) (writes_apart rd)
    (forallb (fun mv ->
      forallb (fun mv' ->
        negb (runs_meet mv.mv_from mv.mv_len mv'.mv_to mv'.mv_len)) rd) rd)

(** val source_has : layout -> place -> int list -> bool **)

let source_has s x i =
  match x.pl_area with
  | Buf ->
    (match pl_box s x.pl_rank with
     | Some sb ->
       (&&) ((fun (a : int) b -> a < b) x.pl_off (box_size sb))
         (list_eqb (box_global sb (delin (box_shape sb) x.pl_off)) i)
     | None -> false)
  | Stage -> false

(** val target_ok : layout -> layout -> schedule -> int -> bool **)

let target_ok s t0 sc w =
  match pl_box t0 w with
  | Some tb ->
    forallb (fun l ->
      source_has s
        (trace0 sc { pl_rank = w; pl_area = Buf; pl_off =
          (lin (box_shape tb) l) }) (box_global tb l))
      (box_indices (box_shape tb))
  | None -> true

(** val validate : layout -> layout -> int -> schedule -> bool **)

let validate s t0 b sc =
  (&&)
    ((&&)
      ((&&) (forallb (forallb (move_ok0 s t0 b)) sc) (forallb round_apart sc))
      (forallb (target_ok s t0 sc) t0.ly_mesh.pm_ranks))
    (forallb (fun w ->
      (fun (a : int) b -> a = b) (received0 sc w) (recv_lower_bound s t0 w))
      (ranks_of s t0))

(** val row_len : int list -> int **)

let row_len shape =
  last shape (Stdlib.Int.succ 0)

(** val buf_place : int -> int -> place **)

let buf_place w q =
  { pl_rank = w; pl_area = Buf; pl_off = q }

(** val aligned : int -> move -> bool **)

let aligned g mv =
  (&&)
    ((&&)
      ((fun (a : int) b -> a = b)
        ((fun a b -> if b = 0 then a else a mod b) mv.mv_from.pl_off g) 0)
      ((fun (a : int) b -> a = b)
        ((fun a b -> if b = 0 then a else a mod b) mv.mv_to.pl_off g) 0))
    ((fun (a : int) b -> a = b)
      ((fun a b -> if b = 0 then a else a mod b) mv.mv_len g) 0)

(** val source_run_has : layout -> place -> int -> int list -> bool **)

let source_run_has s x n i =
  match x.pl_area with
  | Buf ->
    (match pl_box s x.pl_rank with
     | Some sb ->
       (&&)
         ((&&) ((fun (a : int) b -> a < b) x.pl_off (box_size sb))
           ((fun (a : int) b -> a <= b)
             ((+)
               ((fun a b -> if b = 0 then a else a mod b) x.pl_off
                 (row_len (box_shape sb))) n) (row_len (box_shape sb))))
         (list_eqb (box_global sb (delin (box_shape sb) x.pl_off)) i)
     | None -> false)
  | Stage -> false

type indexed_round = (int * round) list * round

(** val index_round : int list -> round -> indexed_round **)

let index_round ranks rd =
  ((map (fun r -> (r,
     (filter (fun mv -> (fun (a : int) b -> a = b) mv.mv_to.pl_rank r) rd)))
     ranks), rd)

(** val moves_to : indexed_round -> int -> round **)

let moves_to ird r =
  match find (fun p -> (fun (a : int) b -> a = b) (fst p) r) (fst ird) with
  | Some p -> snd p
  | None -> snd ird

(** val trace_indexed : indexed_round list -> place -> place **)

let rec trace_indexed isc y =
  match isc with
  | [] -> y
  | ird :: isc' ->
    let y' = trace_indexed isc' y in round_source (moves_to ird y'.pl_rank) y'

(** val target_blocks_ok :
    layout -> layout -> int -> indexed_round list -> int -> bool **)

let target_blocks_ok s t0 g isc w =
  match pl_box t0 w with
  | Some tb ->
    let shape = box_shape tb in
    forallb (fun j ->
      let q = ( * ) j g in
      (||) ((fun (a : int) b -> a <= b) (box_size tb) q)
        ((&&)
          ((fun (a : int) b -> a <= b)
            ((+)
              ((fun a b -> if b = 0 then a else a mod b) q (row_len shape)) g)
            (row_len shape))
          (source_run_has s (trace_indexed isc (buf_place w q)) g
            (box_global tb (delin shape q)))))
      (seq 0
        (Nat.succ ((fun a b -> if b = 0 then 0 else a / b) (box_size tb) g)))
  | None -> true

(** val validate_blocks :
    layout -> layout -> int -> int -> schedule -> bool **)

let validate_blocks s t0 b g sc =
  (&&)
    ((&&)
      ((&&)
        ((&&) ((fun (a : int) b -> a < b) 0 g)
          (forallb
            (forallb (fun mv -> (&&) (move_ok0 s t0 b mv) (aligned g mv))) sc))
        (forallb round_apart sc))
      (forallb
        (target_blocks_ok s t0 g (map (index_round (ranks_of s t0)) sc))
        t0.ly_mesh.pm_ranks))
    (forallb (fun w ->
      (fun (a : int) b -> a = b) (received0 sc w) (recv_lower_bound s t0 w))
      (ranks_of s t0))

(** val map_tr : ('a1 -> 'a2) -> 'a1 list -> 'a2 list **)

let map_tr f l =
  rev' (fold_left (fun acc x -> (f x) :: acc) l [])

(** val filter_tr : ('a1 -> bool) -> 'a1 list -> 'a1 list **)

let filter_tr f l =
  rev' (fold_left (fun acc x -> if f x then x :: acc else acc) l [])

(** val count : 'a1 list -> int **)

let count l =
  fold_left (fun n _ -> Stdlib.Int.succ n) l 0

(** val merge_acc :
    ('a1 -> int) -> 'a1 list -> 'a1 list -> 'a1 list -> 'a1 list **)

let rec merge_acc key0 l1 =
  let rec merge_aux l2 acc =
    match l1 with
    | [] -> rev_append acc l2
    | a :: l1' ->
      (match l2 with
       | [] -> rev_append acc l1
       | b :: l2' ->
         if (fun (a : int) b -> a <= b) (key0 a) (key0 b)
         then merge_acc key0 l1' l2 (a :: acc)
         else merge_aux l2' (b :: acc))
  in merge_aux

(** val merge_pairs :
    ('a1 -> int) -> 'a1 list list -> 'a1 list list -> 'a1 list list **)

let rec merge_pairs key0 ls acc =
  match ls with
  | [] -> acc
  | a :: l ->
    (match l with
     | [] -> a :: acc
     | b :: rest -> merge_pairs key0 rest ((merge_acc key0 a b []) :: acc))

(** val sort_passes : ('a1 -> int) -> int -> 'a1 list list -> 'a1 list **)

let rec sort_passes key0 fuel ls = match ls with
| [] -> []
| a :: l ->
  (match l with
   | [] -> a
   | _ :: _ ->
     ((fun fO fS n -> if n=0 then fO () else fS (n-1))
        (fun _ -> fold_left (fun acc a0 -> rev_append a0 acc) ls [])
        (fun f -> sort_passes key0 f (merge_pairs key0 ls []))
        fuel))

(** val sort_key : ('a1 -> int) -> 'a1 list -> 'a1 list **)

let sort_key key0 l =
  sort_passes key0 (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ
    0))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
    (fold_left (fun acc x -> (x :: []) :: acc) l [])

(** val place_key : int -> place -> int **)

let place_key k x =
  (+)
    (( * )
      ((+) (( * ) x.pl_rank (Stdlib.Int.succ (Stdlib.Int.succ 0)))
        (match x.pl_area with
         | Buf -> 0
         | Stage -> Stdlib.Int.succ 0)) k) x.pl_off

type span = { sp_key : int; sp_len : int; sp_write : bool; sp_id : int }

(** val round_spans : int -> round -> span list **)

let round_spans k rd =
  flat_map (fun im ->
    let (i, mv) = im in
    { sp_key = (place_key k mv.mv_to); sp_len = mv.mv_len; sp_write = true;
    sp_id = i } :: ({ sp_key = (place_key k mv.mv_from); sp_len = mv.mv_len;
    sp_write = false; sp_id = i } :: [])) (combine (seq 0 (length rd)) rd)

(** val spans_apart : int -> int -> span list -> bool **)

let rec spans_apart hw ha = function
| [] -> true
| s :: l' ->
  (&&)
    (if s.sp_write
     then (fun (a : int) b -> a <= b) ha s.sp_key
     else (fun (a : int) b -> a <= b) hw s.sp_key)
    (spans_apart
      (if s.sp_write
       then (fun (a : int) b -> if a >= b then a else b) hw
              ((+) s.sp_key s.sp_len)
       else hw)
      ((fun (a : int) b -> if a >= b then a else b) ha
        ((+) s.sp_key s.sp_len)) l')

(** val round_apart_sorted : int -> round -> bool **)

let round_apart_sorted k rd =
  spans_apart 0 0 (sort_key (fun s -> s.sp_key) (round_spans k rd))

type mtree =
| MLeaf of move
| MNode of int * int * mtree * mtree

(** val mt_lo : int -> mtree -> int **)

let mt_lo k = function
| MLeaf mv -> place_key k mv.mv_to
| MNode (lo, _, _, _) -> lo

(** val mt_hi : int -> mtree -> int **)

let mt_hi k = function
| MLeaf mv -> (+) (place_key k mv.mv_to) mv.mv_len
| MNode (_, hi, _, _) -> hi

(** val mt_node : int -> mtree -> mtree -> mtree **)

let mt_node k l r =
  MNode
    (((fun (a : int) b -> if a <= b then a else b) (mt_lo k l) (mt_lo k r)),
    ((fun (a : int) b -> if a >= b then a else b) (mt_hi k l) (mt_hi k r)),
    l, r)

(** val mt_pairs : int -> mtree list -> mtree list -> mtree list **)

let rec mt_pairs k ts acc =
  match ts with
  | [] -> rev' acc
  | a :: l ->
    (match l with
     | [] -> rev' (a :: acc)
     | b :: rest -> mt_pairs k rest ((mt_node k a b) :: acc))

(** val mt_forest : int -> int -> mtree list -> mtree list **)

let rec mt_forest fuel k ts =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> ts)
    (fun f ->
    match ts with
    | [] -> ts
    | _ :: l ->
      (match l with
       | [] -> ts
       | _ :: _ -> mt_forest f k (mt_pairs k ts [])))
    fuel

(** val round_forest : int -> round -> mtree list **)

let round_forest k rd =
  mt_forest (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ
    0)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))) k
    (map_tr (fun x -> MLeaf x) (sort_key (fun mv -> place_key k mv.mv_to) rd))

(** val mt_meeting : int -> int -> int -> mtree -> move list -> move list **)

let rec mt_meeting k s e t0 acc =
  match t0 with
  | MLeaf mv ->
    if (&&) ((fun (a : int) b -> a < b) (place_key k mv.mv_to) e)
         ((fun (a : int) b -> a < b) s ((+) (place_key k mv.mv_to) mv.mv_len))
    then mv :: acc
    else acc
  | MNode (lo, hi, l, r) ->
    if (&&) ((fun (a : int) b -> a < b) lo e)
         ((fun (a : int) b -> a < b) s hi)
    then mt_meeting k s e l (mt_meeting k s e r acc)
    else acc

(** val forest_meeting : int -> int -> int -> mtree list -> move list **)

let forest_meeting k s e f =
  fold_left (fun acc t0 -> mt_meeting k s e t0 acc) f []

(** val run_gap : place -> int -> place -> int -> int **)

let run_gap x len y n =
  if in_run x len y
  then (fun (a : int) b -> if a >= b then a - b else 0) ((+) x.pl_off len)
         y.pl_off
  else if (&&)
            ((&&) ((fun (a : int) b -> a = b) x.pl_rank y.pl_rank)
              (area_eqb x.pl_area y.pl_area))
            ((fun (a : int) b -> a < b) y.pl_off x.pl_off)
       then (fun (a : int) b -> if a >= b then a - b else 0) x.pl_off y.pl_off
       else n

(** val uniform_len : round -> place -> int -> int **)

let rec uniform_len ms y n =
  match ms with
  | [] -> n
  | mv :: ms' ->
    (fun (a : int) b -> if a <= b then a else b)
      (run_gap mv.mv_to mv.mv_len y n) (uniform_len ms' y n)

(** val trace_run : int -> mtree list list -> place -> int -> place * int **)

let rec trace_run k fs y n =
  match fs with
  | [] -> (y, n)
  | f :: fs' ->
    let (y', n') = trace_run k fs' y n in
    let ms = forest_meeting k (place_key k y') ((+) (place_key k y') n') f in
    ((round_source ms y'), (uniform_len ms y' n'))

(** val runs_cover :
    layout -> int -> mtree list list -> int -> box -> int -> int -> bool **)

let rec runs_cover s k fs w tb fuel q =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> false)
    (fun f ->
    (||) ((fun (a : int) b -> a <= b) (box_size tb) q)
      (let shape = box_shape tb in
       let rl = row_len shape in
       let (x, n) =
         trace_run k fs (buf_place w q)
           ((fun (a : int) b -> if a >= b then a - b else 0) rl
             ((fun a b -> if b = 0 then a else a mod b) q rl))
       in
       (&&)
         ((&&)
           ((&&) ((fun (a : int) b -> a < b) 0 n)
             ((fun (a : int) b -> a <= b)
               ((+) ((fun a b -> if b = 0 then a else a mod b) q rl) n) rl))
           (source_run_has s x n (box_global tb (delin shape q))))
         (runs_cover s k fs w tb f ((+) q n))))
    fuel

(** val target_runs_ok :
    layout -> layout -> int -> mtree list list -> int -> bool **)

let target_runs_ok s t0 k fs w =
  match pl_box t0 w with
  | Some tb -> runs_cover s k fs w tb (Stdlib.Int.succ (box_size tb)) 0
  | None -> true

(** val validate_runs : layout -> layout -> int -> schedule -> bool **)

let validate_runs s t0 b sc =
  let k = Stdlib.Int.succ
    (fold_left (fun m w ->
      (fun (a : int) b -> if a >= b then a else b) m (buf_size s t0 w))
      (ranks_of s t0) b)
  in
  (&&)
    ((&&)
      ((&&) (forallb (forallb (move_ok0 s t0 b)) sc)
        (forallb (round_apart_sorted k) sc))
      (forallb (target_runs_ok s t0 k (map (round_forest k) sc))
        t0.ly_mesh.pm_ranks))
    (forallb (fun w ->
      (fun (a : int) b -> a = b) (received0 sc w) (recv_lower_bound s t0 w))
      (ranks_of s t0))

(** val row_starts : int list -> int list list **)

let row_starts shape = match shape with
| [] -> [] :: []
| _ :: _ -> box_indices (app (removelast shape) ((Stdlib.Int.succ 0) :: []))

(** val cell_runs : layout -> int -> box -> (int * box) -> move list **)

let cell_runs s w tb = function
| (s0, c) ->
  (match pl_box s s0 with
   | Some sb ->
     map (fun l ->
       let i = box_global c l in
       { mv_from = (buf_place s0 (lin (box_shape sb) (box_local sb i)));
       mv_to = (buf_place w (lin (box_shape tb) (box_local tb i))); mv_len =
       (row_len (box_shape c)) }) (row_starts (box_shape c))
   | None -> [])

(** val exchange_runs : layout -> layout -> move list **)

let exchange_runs s t0 =
  flat_map (fun w ->
    match pl_box t0 w with
    | Some tb -> flat_map (cell_runs s w tb) (recv_messages s t0 w)
    | None -> []) t0.ly_mesh.pm_ranks

type piece = { pc_to : int; pc_from : int; pc_len : int }

(** val key_place : int -> int -> place **)

let key_place k k0 =
  { pl_rank =
    ((fun a b -> if b = 0 then 0 else a / b) k0
      (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0)) k)); pl_area =
    (if (fun (a : int) b -> a = b)
          ((fun a b -> if b = 0 then a else a mod b)
            ((fun a b -> if b = 0 then 0 else a / b) k0 k) (Stdlib.Int.succ
            (Stdlib.Int.succ 0))) 0
     then Buf
     else Stage); pl_off = ((fun a b -> if b = 0 then a else a mod b) k0 k) }

(** val piece_move : int -> piece -> move **)

let piece_move k p =
  { mv_from = (key_place k p.pc_from); mv_to = (key_place k p.pc_to);
    mv_len = p.pc_len }

(** val sub_piece : piece -> int -> int -> piece **)

let sub_piece p d n =
  { pc_to = ((+) p.pc_to d); pc_from = ((+) p.pc_from d); pc_len = n }

(** val merge_adjacent : piece -> piece list -> piece list -> piece list **)

let rec merge_adjacent cur ps acc =
  match ps with
  | [] -> rev' (cur :: acc)
  | p :: ps' ->
    if (&&) ((fun (a : int) b -> a = b) ((+) cur.pc_to cur.pc_len) p.pc_to)
         ((fun (a : int) b -> a = b) ((+) cur.pc_from cur.pc_len) p.pc_from)
    then merge_adjacent { pc_to = cur.pc_to; pc_from = cur.pc_from; pc_len =
           ((+) cur.pc_len p.pc_len) } ps' acc
    else merge_adjacent p ps' (cur :: acc)

(** val coalesce : piece list -> piece list **)

let coalesce = function
| [] -> []
| p :: ps' -> merge_adjacent p ps' []

(** val union_sorted :
    (int * int) -> (int * int) list -> (int * int) list -> (int * int) list **)

let rec union_sorted cur l acc =
  match l with
  | [] -> rev' (cur :: acc)
  | p :: l' ->
    let (a, b) = p in
    if (fun (a : int) b -> a <= b) a (snd cur)
    then union_sorted ((fst cur),
           ((fun (a : int) b -> if a >= b then a else b) (snd cur) b)) l' acc
    else union_sorted (a, b) l' (cur :: acc)

(** val reads_of : piece list -> ((int * int) * int) list **)

let reads_of ps =
  match map_tr (fun p -> (p.pc_from, ((+) p.pc_from p.pc_len))) ps with
  | [] -> []
  | c :: l ->
    map_tr (fun ab -> (((fst ab), (snd ab)), 0)) (union_sorted c l [])

(** val drop_ended :
    int -> ((int * int) * int) list -> ((int * int) * int) list **)

let rec drop_ended s r = match r with
| [] -> []
| p :: r' ->
  let (p0, _) = p in
  let (_, b) = p0 in
  if (fun (a : int) b -> a <= b) b s then drop_ended s r' else r

(** val cut_run :
    int -> int -> int -> ((int * int) * int) list -> ((int * int) * int
    option) list -> ((int * int) * int option) list **)

let rec cut_run fuel s e r acc =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> rev' acc)
    (fun f ->
    if (fun (a : int) b -> a <= b) e s
    then rev' acc
    else (match r with
          | [] -> rev' (((s, e), None) :: acc)
          | p :: r' ->
            let (p0, d) = p in
            let (a, b) = p0 in
            if (fun (a : int) b -> a <= b) b s
            then cut_run f s e r' acc
            else if (fun (a : int) b -> a < b) s a
                 then cut_run f
                        ((fun (a : int) b -> if a <= b then a else b) a e) e
                        r (((s,
                        ((fun (a : int) b -> if a <= b then a else b) a e)),
                        None) :: acc)
                 else cut_run f
                        ((fun (a : int) b -> if a <= b then a else b) b e) e
                        r' (((s,
                        ((fun (a : int) b -> if a <= b then a else b) b e)),
                        (Some
                        ((+) d
                          ((fun (a : int) b -> if a >= b then a - b else 0) s
                            a)))) :: acc)))
    fuel

(** val cut_pieces :
    (piece -> int) -> piece list -> ((int * int) * int) list -> (piece * int
    option) list -> (piece * int option) list **)

let rec cut_pieces coord ps r acc =
  match ps with
  | [] -> rev' acc
  | p :: ps' ->
    let s = coord p in
    let r1 = drop_ended s r in
    let parts =
      cut_run
        ((+) (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0)) p.pc_len)
          (Stdlib.Int.succ (Stdlib.Int.succ 0))) s ((+) s p.pc_len) r1 []
    in
    cut_pieces coord ps' r1
      (fold_left (fun acc' part ->
        let (p0, d) = part in
        let (a, b) = p0 in
        ((sub_piece p ((fun (a : int) b -> if a >= b then a - b else 0) a s)
           ((fun (a : int) b -> if a >= b then a - b else 0) b a)), d) :: acc')
        parts acc)

(** val outside : (piece * int option) list -> piece list **)

let outside parts =
  map_tr fst
    (filter_tr (fun pd -> match snd pd with
                          | Some _ -> false
                          | None -> true) parts)

(** val inside : (piece * int option) list -> piece list **)

let inside parts =
  map_tr fst
    (filter_tr (fun pd -> match snd pd with
                          | Some _ -> true
                          | None -> false) parts)

(** val fill0 :
    int -> (int * int) list -> (int * int) list -> piece list -> piece list **)

let rec fill0 fuel need free acc =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> acc)
    (fun f ->
    match need with
    | [] -> acc
    | p :: need' ->
      let (t0, te) = p in
      (match free with
       | [] -> acc
       | p0 :: free' ->
         let (z0, ze) = p0 in
         let m =
           (fun (a : int) b -> if a <= b then a else b)
             ((fun (a : int) b -> if a >= b then a - b else 0) te t0)
             ((fun (a : int) b -> if a >= b then a - b else 0) ze z0)
         in
         fill0 f
           (if (fun (a : int) b -> a < b) ((+) t0 m) te
            then (((+) t0 m), te) :: need'
            else need')
           (if (fun (a : int) b -> a < b) ((+) z0 m) ze
            then (((+) z0 m), ze) :: free'
            else free') ({ pc_to = z0; pc_from = t0; pc_len = m } :: acc)))
    fuel

(** val split_while :
    ('a1 -> bool) -> 'a1 list -> 'a1 list -> 'a1 list * 'a1 list **)

let rec split_while p l acc =
  match l with
  | [] -> ((rev' acc), [])
  | x :: l' -> if p x then split_while p l' (x :: acc) else ((rev' acc), l)

(** val plan_saves :
    int -> int -> int -> ((int * int) * int) list -> (int * int) list ->
    piece list -> piece list **)

let rec plan_saves fuel k b reads need acc =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> acc)
    (fun f ->
    match need with
    | [] -> acc
    | p :: _ ->
      let (t0, _) = p in
      let r =
        (fun a b -> if b = 0 then 0 else a / b) t0
          (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0)) k)
      in
      let (mine, rest) =
        split_while (fun x ->
          (fun (a : int) b -> a = b)
            ((fun a b -> if b = 0 then 0 else a / b) (fst x)
              (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0)) k)) r) need []
      in
      let base =
        ( * )
          ((+) (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0)) r)
            (Stdlib.Int.succ 0)) k
      in
      let reads' = drop_ended base reads in
      let free =
        map_tr (fun part -> let (y, _) = part in y)
          (filter_tr (fun part ->
            match snd part with
            | Some _ -> false
            | None -> true)
            (cut_run
              ((+) (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0)) b)
                (Stdlib.Int.succ (Stdlib.Int.succ 0))) base ((+) base b)
              reads' []))
      in
      plan_saves f k b reads' rest
        (fill0 ((+) (count mine) (count free)) mine free acc))
    fuel

(** val subtract :
    ((int * int) * int) list -> ((int * int) * int) list ->
    ((int * int) * int) list -> ((int * int) * int) list **)

let rec subtract a r acc =
  match a with
  | [] -> rev' acc
  | p :: a' ->
    let (p0, _) = p in
    let (a0, b) = p0 in
    let r1 = drop_ended a0 r in
    subtract a' r1
      (fold_left (fun acc' part ->
        let (p1, o) = part in
        (match o with
         | Some _ -> acc'
         | None -> (p1, 0) :: acc'))
        (cut_run
          ((+)
            (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0))
              ((fun (a : int) b -> if a >= b then a - b else 0) b a0))
            (Stdlib.Int.succ (Stdlib.Int.succ 0))) a0 b r1 []) acc)

type itree =
| ILeaf of int * int * int
| INode of int * int * itree * itree

(** val it_lo : itree -> int **)

let it_lo = function
| ILeaf (a, _, _) -> a
| INode (lo, _, _, _) -> lo

(** val it_hi : itree -> int **)

let it_hi = function
| ILeaf (_, b, _) -> b
| INode (_, hi, _, _) -> hi

(** val it_node : itree -> itree -> itree **)

let it_node l r =
  INode (((fun (a : int) b -> if a <= b then a else b) (it_lo l) (it_lo r)),
    ((fun (a : int) b -> if a >= b then a else b) (it_hi l) (it_hi r)), l, r)

(** val it_pairs : itree list -> itree list -> itree list **)

let rec it_pairs ts acc =
  match ts with
  | [] -> rev' acc
  | a :: l ->
    (match l with
     | [] -> rev' (a :: acc)
     | b :: rest -> it_pairs rest ((it_node a b) :: acc))

(** val it_forest : int -> itree list -> itree list **)

let rec it_forest fuel ts =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> ts)
    (fun f ->
    match ts with
    | [] -> ts
    | _ :: l ->
      (match l with
       | [] -> ts
       | _ :: _ -> it_forest f (it_pairs ts [])))
    fuel

(** val it_meeting :
    int -> int -> itree -> ((int * int) * int) list -> ((int * int) * int)
    list **)

let rec it_meeting s e t0 acc =
  match t0 with
  | ILeaf (a, b, d) ->
    if (&&) ((fun (a : int) b -> a < b) a e) ((fun (a : int) b -> a < b) s b)
    then ((a, b), d) :: acc
    else acc
  | INode (lo, hi, l, r) ->
    if (&&) ((fun (a : int) b -> a < b) lo e)
         ((fun (a : int) b -> a < b) s hi)
    then it_meeting s e l (it_meeting s e r acc)
    else acc

(** val gen_round : int -> int -> piece list -> round * piece list **)

let gen_round k b ps =
  let reads = reads_of (sort_key (fun p -> p.pc_from) ps) in
  let parts = cut_pieces (fun p -> p.pc_to) ps reads [] in
  let ready = coalesce (outside parts) in
  let blocked = inside parts in
  let read_later =
    subtract reads (reads_of (sort_key (fun p -> p.pc_from) ready)) []
  in
  let need =
    map_tr (fun p -> (p.pc_to, ((+) p.pc_to p.pc_len)))
      (inside (cut_pieces (fun p -> p.pc_to) blocked read_later []))
  in
  let saves = rev' (plan_saves (count need) k b reads need []) in
  let save_tree =
    it_forest (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
      (Stdlib.Int.succ
      0))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
      (map_tr (fun sv -> ILeaf (sv.pc_from, ((+) sv.pc_from sv.pc_len),
        sv.pc_to)) saves)
  in
  let redirect = fun acc p ->
    let s = p.pc_from in
    let hits =
      fold_right (fun t0 acc' -> it_meeting s ((+) s p.pc_len) t0 acc') []
        save_tree
    in
    (match hits with
     | [] -> p :: acc
     | _ :: _ ->
       fold_left (fun acc' part ->
         let (p0, d) = part in
         let (a, b0) = p0 in
         let q =
           sub_piece p ((fun (a : int) b -> if a >= b then a - b else 0) a s)
             ((fun (a : int) b -> if a >= b then a - b else 0) b0 a)
         in
         (match d with
          | Some z0 ->
            { pc_to = q.pc_to; pc_from = z0; pc_len = q.pc_len } :: acc'
          | None -> q :: acc'))
         (cut_run
           ((+) (( * ) (Stdlib.Int.succ (Stdlib.Int.succ 0)) p.pc_len)
             (Stdlib.Int.succ (Stdlib.Int.succ 0))) s ((+) s p.pc_len) hits
           []) acc)
  in
  ((app (map_tr (piece_move k) ready)
     (map_tr (piece_move k) (coalesce saves))),
  (coalesce (rev' (fold_left redirect blocked []))))

(** val inplace_work_limit : int **)

let inplace_work_limit =
  Nat.pow (Stdlib.Int.succ (Stdlib.Int.succ 0)) (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ (Stdlib.Int.succ
    (Stdlib.Int.succ (Stdlib.Int.succ 0)))))))))))))))))))))))

(** val gen_rounds :
    int -> int -> int -> int -> piece list -> round list -> schedule option **)

let rec gen_rounds fuel work k b ps acc =
  match ps with
  | [] -> Some (rev' acc)
  | _ :: _ ->
    ((fun fO fS n -> if n=0 then fO () else fS (n-1))
       (fun _ -> None)
       (fun f ->
       let n = count ps in
       if (fun (a : int) b -> a < b) work n
       then None
       else let (rd, ps') = gen_round k b ps in
            (match rd with
             | [] -> None
             | _ :: _ ->
               gen_rounds f
                 ((fun (a : int) b -> if a >= b then a - b else 0) work n) k
                 b ps' (rd :: acc)))
       fuel)

(** val inplace_schedule : layout -> layout -> int -> schedule option **)

let inplace_schedule s t0 b =
  let k = Stdlib.Int.succ
    (fold_left (fun m w ->
      (fun (a : int) b -> if a >= b then a else b) m (buf_size s t0 w))
      (ranks_of s t0) b)
  in
  let pieces =
    map_tr (fun mv -> { pc_to = (place_key k mv.mv_to); pc_from =
      (place_key k mv.mv_from); pc_len = mv.mv_len }) (exchange_runs s t0)
  in
  let moving =
    filter_tr (fun p ->
      (&&) (negb ((fun (a : int) b -> a = b) p.pc_to p.pc_from))
        ((fun (a : int) b -> a < b) 0 p.pc_len)) pieces
  in
  gen_rounds (Stdlib.Int.succ inplace_work_limit) inplace_work_limit k b
    (coalesce (sort_key (fun p -> p.pc_to) moving)) []

(** val inplace_plan : layout -> layout -> int -> schedule option **)

let inplace_plan s t0 b =
  match inplace_schedule s t0 b with
  | Some sc -> if validate_runs s t0 b sc then Some sc else None
  | None -> None

module KeyedRun =
 struct
  type t = (int * int) * int

  (** val leb : t -> t -> bool **)

  let leb x y =
    let (p, _) = x in
    let (to0, from) = p in
    let (p0, _) = y in
    let (to', from') = p0 in
    (||) ((fun (a : int) b -> a < b) to0 to')
      ((&&) ((fun (a : int) b -> a = b) to0 to')
        ((fun (a : int) b -> a <= b) from from'))
 end

module RunSort = Sort(KeyedRun)

(** val peer_ns : profile -> hosts -> int -> int -> int -> int **)

let peer_ns pf h to0 from bytes =
  batch_ns pf (((route_between h to0 from), (Stdlib.Int.succ 0)), bytes)

(** val busiest_ns :
    profile -> hosts -> int -> int -> int -> int -> int ->
    ((int * int) * int) list -> int **)

let rec busiest_ns pf h to0 from bytes rank0 best0 = function
| [] ->
  (fun (a : int) b -> if a >= b then a else b) best0
    ((+) rank0 (peer_ns pf h to0 from bytes))
| p :: runs' ->
  let (p0, b) = p in
  let (to', from') = p0 in
  if (&&) ((fun (a : int) b -> a = b) to' to0)
       ((fun (a : int) b -> a = b) from' from)
  then busiest_ns pf h to0 from ((+) bytes b) rank0 best0 runs'
  else if (fun (a : int) b -> a = b) to' to0
       then busiest_ns pf h to' from' b
              ((+) rank0 (peer_ns pf h to0 from bytes)) best0 runs'
       else busiest_ns pf h to' from' b 0
              ((fun (a : int) b -> if a >= b then a else b) best0
                ((+) rank0 (peer_ns pf h to0 from bytes))) runs'

(** val round_ns : profile -> hosts -> int -> round -> int **)

let round_ns pf h elem rd =
  match RunSort.sort
          (map (fun mv -> ((mv.mv_to.pl_rank, mv.mv_from.pl_rank),
            (( * ) mv.mv_len elem))) rd) with
  | [] -> 0
  | p :: runs ->
    let (p0, b) = p in
    let (to0, from) = p0 in busiest_ns pf h to0 from b 0 0 runs

(** val inplace_steps_ns : profile -> hosts -> int -> schedule -> int list **)

let inplace_steps_ns pf h elem sc =
  map (round_ns pf h elem) sc

(** val inplace_ns : profile -> hosts -> int -> schedule -> int **)

let inplace_ns pf h elem sc =
  list_sum (inplace_steps_ns pf h elem sc)

(** val largest_buffer : layout -> layout -> int **)

let largest_buffer s t0 =
  max_over (ranks_of s t0) (buf_size s t0)

(** val inplace_least_budget : int -> layout -> layout -> int **)

let inplace_least_budget elem s t0 =
  ( * ) ((+) (largest_buffer s t0) (Stdlib.Int.succ 0)) elem

(** val inplace_staging :
    int -> layout -> layout -> int option -> int option **)

let inplace_staging elem s t0 budget =
  let most =
    (fun (a : int) b -> if a >= b then a else b) (Stdlib.Int.succ 0)
      (largest_buffer s t0)
  in
  (match budget with
   | Some b ->
     if (fun (a : int) b -> a < b) b (inplace_least_budget elem s t0)
     then None
     else Some
            ((fun (a : int) b -> if a <= b then a else b) most
              ((fun a b -> if b = 0 then 0 else a / b)
                ((fun (a : int) b -> if a >= b then a - b else 0) b
                  (( * ) (largest_buffer s t0) elem)) elem))
   | None -> Some most)

type buffer_plan =
| OutOfPlace of splan
| InPlace of int * schedule

(** val out_of_place : splan costed -> buffer_plan costed **)

let out_of_place c =
  { cs_index = c.cs_index; cs_plan = (OutOfPlace c.cs_plan); cs_steps_ns =
    c.cs_steps_ns; cs_time_ns = c.cs_time_ns; cs_live_bytes =
    c.cs_live_bytes; cs_alloc_bytes = c.cs_alloc_bytes; cs_traffic =
    c.cs_traffic; cs_launches = c.cs_launches }

(** val cost_in_place :
    profile -> hosts -> int -> layout -> layout -> int -> int -> buffer_plan
    costed option **)

let cost_in_place pf h elem s t0 i b =
  match inplace_plan s t0 b with
  | Some sc ->
    let steps = inplace_steps_ns pf h elem sc in
    let bytes = ( * ) ((+) (largest_buffer s t0) b) elem in
    Some { cs_index = i; cs_plan = (InPlace (b, sc)); cs_steps_ns = steps;
    cs_time_ns = (list_sum steps); cs_live_bytes = bytes; cs_alloc_bytes =
    bytes; cs_traffic = (max_over (ranks_of s t0) (received0 sc));
    cs_launches = (length sc) }
  | None -> None

(** val in_place_candidates :
    profile -> hosts -> int -> int option -> strategy -> layout -> layout ->
    int -> buffer_plan costed list **)

let in_place_candidates pf h elem budget s s0 t0 i =
  match s with
  | StratAuto ->
    (match budget with
     | Some n ->
       (match inplace_staging elem s0 t0 (Some n) with
        | Some b ->
          if layouts_wf s0 t0
          then (match cost_in_place pf h elem s0 t0 i b with
                | Some c -> c :: []
                | None -> [])
          else []
        | None -> [])
     | None -> [])
  | _ -> []

(** val within_candidates :
    bool -> bool -> profile -> hosts -> int -> int option -> strategy ->
    layout -> layout -> buffer_plan costed list **)

let within_candidates hybrids in_place pf h elem budget s s0 t0 =
  let sps = strategy_candidates hybrids s s0 t0 in
  app (map out_of_place (cost_all pf h elem s0 t0 0 sps))
    (if in_place
     then in_place_candidates pf h elem budget s s0 t0 (length sps)
     else [])

(** val choose_within :
    bool -> bool -> profile -> hosts -> int -> int option -> strategy ->
    layout -> layout -> (choose_error, buffer_plan choice) res **)

let choose_within hybrids in_place pf h elem budget s s0 t0 =
  choose_among budget
    (within_candidates hybrids in_place pf h elem budget s s0 t0)

type cut =
| Block of axis list
| Cyclic of axis list * int

(** val cut_axes : cut -> axis list **)

let cut_axes = function
| Block xs -> xs
| Cyclic (xs, _) -> xs

(** val cut_parts : mesh -> cut -> int **)

let cut_parts m k =
  prod0 (map (axis_size m) (cut_axes k))

(** val cut_chunk : mesh -> cut -> device -> int **)

let cut_chunk m k c =
  radix m c (cut_axes k)

(** val block_lo : int -> int -> int -> int **)

let block_lo p e j =
  (fun (a : int) b -> if a <= b then a else b) e (( * ) j (ceil_div e p))

(** val cut_owner : cut -> int -> int -> int -> int **)

let cut_owner k p e i =
  match k with
  | Block _ -> (fun a b -> if b = 0 then 0 else a / b) i (ceil_div e p)
  | Cyclic (_, b) ->
    (fun a b -> if b = 0 then a else a mod b)
      ((fun a b -> if b = 0 then 0 else a / b) i b) p

(** val cut_local : cut -> int -> int -> int -> int -> int **)

let cut_local k p e j i =
  match k with
  | Block _ ->
    (fun (a : int) b -> if a >= b then a - b else 0) i (block_lo p e j)
  | Cyclic (_, b) ->
    (+)
      (( * )
        ((fun a b -> if b = 0 then 0 else a / b)
          ((fun a b -> if b = 0 then 0 else a / b) i b) p) b)
      ((fun a b -> if b = 0 then a else a mod b) i b)

(** val cut_global : cut -> int -> int -> int -> int -> int **)

let cut_global k p e j l =
  match k with
  | Block _ -> (+) (block_lo p e j) l
  | Cyclic (_, b) ->
    (+)
      (( * ) ((+) (( * ) ((fun a b -> if b = 0 then 0 else a / b) l b) p) j)
        b) ((fun a b -> if b = 0 then a else a mod b) l b)

(** val cut_extent : cut -> int -> int -> int -> int **)

let cut_extent k p e j =
  match k with
  | Block _ ->
    (fun (a : int) b -> if a >= b then a - b else 0)
      ((fun (a : int) b -> if a <= b then a else b) e
        (( * ) (Stdlib.Int.succ j) (ceil_div e p))) (block_lo p e j)
  | Cyclic (_, b) ->
    let whole = (fun a b -> if b = 0 then 0 else a / b) e b in
    (+)
      (( * ) b
        ((+) ((fun a b -> if b = 0 then 0 else a / b) whole p)
          (if (fun (a : int) b -> a < b) j
                ((fun a b -> if b = 0 then a else a mod b) whole p)
           then Stdlib.Int.succ 0
           else 0)))
      (if (fun (a : int) b -> a = b) j
            ((fun a b -> if b = 0 then a else a mod b) whole p)
       then (fun a b -> if b = 0 then a else a mod b) e b
       else 0)

type cdim = cut list * int

type cty = cdim list

(** val dim_owns : mesh -> cut list -> int -> device -> int -> bool **)

let rec dim_owns m ks e c i =
  match ks with
  | [] -> (fun (a : int) b -> a < b) i e
  | k :: ks' ->
    let p = cut_parts m k in
    let j = cut_chunk m k c in
    (&&)
      ((&&) ((fun (a : int) b -> a < b) i e)
        ((fun (a : int) b -> a = b) (cut_owner k p e i) j))
      (dim_owns m ks' (cut_extent k p e j) c (cut_local k p e j i))

(** val dim_local : mesh -> cut list -> int -> device -> int -> int **)

let rec dim_local m ks e c i =
  match ks with
  | [] -> i
  | k :: ks' ->
    let p = cut_parts m k in
    let j = cut_chunk m k c in
    dim_local m ks' (cut_extent k p e j) c (cut_local k p e j i)

(** val dim_extent : mesh -> cut list -> int -> device -> int **)

let rec dim_extent m ks e c =
  match ks with
  | [] -> e
  | k :: ks' ->
    dim_extent m ks' (cut_extent k (cut_parts m k) e (cut_chunk m k c)) c

(** val dim_global : mesh -> cut list -> int -> device -> int -> int **)

let rec dim_global m ks e c l =
  match ks with
  | [] -> l
  | k :: ks' ->
    let p = cut_parts m k in
    let j = cut_chunk m k c in
    cut_global k p e j (dim_global m ks' (cut_extent k p e j) c l)

(** val cyclic_runs :
    (int -> int) -> int -> int -> int -> int -> (int * int) list **)

let rec cyclic_runs g b fuel lo n =
  (fun fO fS n -> if n=0 then fO () else fS (n-1))
    (fun _ -> [])
    (fun f ->
    if (fun (a : int) b -> a = b) n 0
    then []
    else let len =
           (fun (a : int) b -> if a <= b then a else b) n
             ((fun (a : int) b -> if a >= b then a - b else 0) b
               ((fun a b -> if b = 0 then a else a mod b) lo b))
         in
         ((g lo),
         len) :: (cyclic_runs g b f ((+) lo len)
                   ((fun (a : int) b -> if a >= b then a - b else 0) n len)))
    fuel

(** val cut_image :
    cut -> int -> int -> int -> (int * int) -> (int * int) list **)

let cut_image k p e j iv =
  let g = cut_global k p e j in
  (match k with
   | Block _ -> ((g (fst iv)), (snd iv)) :: []
   | Cyclic (_, b) -> cyclic_runs g b (snd iv) (fst iv) (snd iv))

(** val dim_intervals :
    mesh -> cut list -> int -> device -> (int * int) list **)

let rec dim_intervals m ks e c =
  match ks with
  | [] -> if (fun (a : int) b -> a = b) e 0 then [] else (0, e) :: []
  | k :: ks' ->
    let p = cut_parts m k in
    let j = cut_chunk m k c in
    flat_map (cut_image k p e j) (dim_intervals m ks' (cut_extent k p e j) c)

(** val c_has : mesh -> cty -> device -> int list -> bool **)

let rec c_has m t0 c i =
  match t0 with
  | [] -> (match i with
           | [] -> true
           | _ :: _ -> false)
  | d :: t' ->
    (match i with
     | [] -> false
     | x :: i' -> (&&) (dim_owns m (fst d) (snd d) c x) (c_has m t' c i'))

(** val c_local : mesh -> cty -> device -> int list -> int list **)

let rec c_local m t0 c i =
  match t0 with
  | [] -> []
  | d :: t' ->
    (match i with
     | [] -> []
     | x :: i' -> (dim_local m (fst d) (snd d) c x) :: (c_local m t' c i'))

(** val c_global : mesh -> cty -> device -> int list -> int list **)

let rec c_global m t0 c l =
  match t0 with
  | [] -> []
  | d :: t' ->
    (match l with
     | [] -> []
     | y :: l' -> (dim_global m (fst d) (snd d) c y) :: (c_global m t' c l'))

(** val c_shape : mesh -> cty -> device -> int list **)

let c_shape m t0 c =
  map (fun d -> dim_extent m (fst d) (snd d) c) t0

(** val c_intervals : mesh -> cty -> device -> (int * int) list list **)

let c_intervals m t0 c =
  map (fun d -> dim_intervals m (fst d) (snd d) c) t0

(** val cut_wf : mesh -> cut -> bool **)

let cut_wf m k =
  (&&) (forallb (fun x -> memb x (mesh_axes m)) (cut_axes k))
    (match k with
     | Block _ -> true
     | Cyclic (_, b) -> (fun (a : int) b -> a <= b) (Stdlib.Int.succ 0) b)

(** val cty_axes : cty -> axis list **)

let cty_axes t0 =
  flat_map (fun d -> flat_map cut_axes (fst d)) t0

(** val cty_wf : mesh -> cty -> bool **)

let cty_wf m t0 =
  (&&) (forallb (fun d -> forallb (cut_wf m) (fst d)) t0)
    (nodupb (cty_axes t0))

type clayout = { cl_mesh : pmesh; cl_ty0 : cty }

(** val cl_m : clayout -> mesh **)

let cl_m l =
  l.cl_mesh.pm_mesh

(** val clayout_wf : clayout -> bool **)

let clayout_wf l =
  (&&) (pmesh_wf l.cl_mesh) (cty_wf (cl_m l) l.cl_ty0)

(** val cl_device : clayout -> int -> device option **)

let cl_device l w =
  option_map (device_of_rank (cl_m l)) (index_of w l.cl_mesh.pm_ranks)

(** val cdim_of_dimty : dimty -> cdim **)

let cdim_of_dimty d =
  (((Block (fst d)) :: []), (snd d))

(** val cty_of_ty : ty -> cty **)

let cty_of_ty t0 =
  map cdim_of_dimty t0

(** val clayout_of_layout : layout -> clayout **)

let clayout_of_layout l =
  { cl_mesh = l.ly_mesh; cl_ty0 = (cty_of_ty l.ly_ty) }

type lbox = (int * int) list

(** val iv_meet : (int * int) -> (int * int) -> int * int **)

let iv_meet a b =
  let lo = (fun (a : int) b -> if a >= b then a else b) (fst a) (fst b) in
  (lo,
  ((fun (a : int) b -> if a >= b then a - b else 0)
    ((fun (a : int) b -> if a <= b then a else b) ((+) (fst a) (snd a))
      ((+) (fst b) (snd b))) lo))

(** val ivs_meet :
    (int * int) list -> (int * int) list -> (int * int) list **)

let ivs_meet xs ys =
  filter (fun iv -> negb ((fun (a : int) b -> a = b) (snd iv) 0))
    (flat_map (fun a -> map (iv_meet a) ys) xs)

(** val product_boxes : (int * int) list list -> lbox list **)

let rec product_boxes = function
| [] -> [] :: []
| d :: ds' ->
  flat_map (fun iv -> map (fun x -> iv :: x) (product_boxes ds')) d

(** val meet_dims :
    (int * int) list list -> (int * int) list list -> (int * int) list list **)

let meet_dims xs ys =
  map (fun p -> ivs_meet (fst p) (snd p)) (combine xs ys)

(** val device_cells : clayout -> clayout -> device -> device -> lbox list **)

let device_cells s t0 cs ct =
  product_boxes
    (meet_dims (c_intervals (cl_m s) s.cl_ty0 cs)
      (c_intervals (cl_m t0) t0.cl_ty0 ct))

(** val localize : mesh -> cty -> device -> lbox -> lbox **)

let rec localize m t0 c b =
  match t0 with
  | [] -> []
  | d :: t' ->
    (match b with
     | [] -> []
     | iv :: b' ->
       ((dim_local m (fst d) (snd d) c (fst iv)),
         (snd iv)) :: (localize m t' c b'))

(** val same_parts : mesh -> cty -> device -> device -> bool **)

let same_parts m t0 c c' =
  forallb (fun d ->
    forallb (fun k ->
      (fun (a : int) b -> a = b) (cut_chunk m k c) (cut_chunk m k c')) 
      (fst d)) t0

(** val is_lead : clayout -> int -> bool **)

let is_lead s k =
  forallb (fun k' ->
    negb
      (same_parts (cl_m s) s.cl_ty0 (device_of_rank (cl_m s) k')
        (device_of_rank (cl_m s) k))) (seq 0 k)

(** val sends_to : clayout -> int -> int -> bool **)

let sends_to s s0 r =
  match index_of s0 s.cl_mesh.pm_ranks with
  | Some k ->
    (&&) ((&&) (negb ((fun (a : int) b -> a = b) s0 r)) (is_lead s k))
      (match cl_device s r with
       | Some c ->
         negb (same_parts (cl_m s) s.cl_ty0 c (device_of_rank (cl_m s) k))
       | None -> true)
  | None -> false

(** val region_cells : clayout -> clayout -> int -> int -> lbox list **)

let region_cells s t0 s0 r =
  match cl_device s s0 with
  | Some cs ->
    (match cl_device t0 r with
     | Some ct -> device_cells s t0 cs ct
     | None -> [])
  | None -> []

(** val src_local : clayout -> int -> lbox -> lbox **)

let src_local s w b =
  match cl_device s w with
  | Some c -> localize (cl_m s) s.cl_ty0 c b
  | None -> b

(** val tgt_local : clayout -> int -> lbox -> lbox **)

let tgt_local t0 w b =
  match cl_device t0 w with
  | Some c -> localize (cl_m t0) t0.cl_ty0 c b
  | None -> b

(** val message : int -> lbox list -> (int * lbox list) list **)

let message p bs = match bs with
| [] -> []
| _ :: _ -> (p, bs) :: []

(** val region_sends : clayout -> clayout -> int -> (int * lbox list) list **)

let region_sends s t0 r =
  flat_map (fun p ->
    if sends_to s r p
    then message p (map (src_local s r) (region_cells s t0 r p))
    else []) t0.cl_mesh.pm_ranks

(** val region_recvs : clayout -> clayout -> int -> (int * lbox list) list **)

let region_recvs s t0 r =
  flat_map (fun p ->
    if sends_to s p r
    then message p (map (tgt_local t0 r) (region_cells s t0 p r))
    else []) s.cl_mesh.pm_ranks

(** val region_copies : clayout -> clayout -> int -> (lbox * lbox) list **)

let region_copies s t0 r =
  map (fun b -> ((src_local s r b), (tgt_local t0 r b)))
    (region_cells s t0 r r)

(** val in_lbox : lbox -> int list -> bool **)

let rec in_lbox b l =
  match b with
  | [] -> (match l with
           | [] -> true
           | _ :: _ -> false)
  | p :: b' ->
    let (o, n) = p in
    (match l with
     | [] -> false
     | x :: l' ->
       (&&)
         ((&&) ((fun (a : int) b -> a <= b) o x)
           ((fun (a : int) b -> a < b) x ((+) o n))) (in_lbox b' l'))

(** val shift0 : lbox -> lbox -> int list -> int list **)

let rec shift0 from to0 l =
  match from with
  | [] -> []
  | p :: f' ->
    let (o, _) = p in
    (match to0 with
     | [] -> []
     | p0 :: t' ->
       let (o', _) = p0 in
       (match l with
        | [] -> []
        | x :: l' ->
          ((+) o' ((fun (a : int) b -> if a >= b then a - b else 0) x o)) :: 
            (shift0 f' t' l')))

(** val find_box : lbox list -> int list -> int option **)

let rec find_box bs l =
  match bs with
  | [] -> None
  | b :: bs' ->
    if in_lbox b l
    then Some 0
    else option_map (fun x -> Stdlib.Int.succ x) (find_box bs' l)

(** val peer_boxes : (int * lbox list) list -> int -> lbox list **)

let rec peer_boxes msgs p =
  match msgs with
  | [] -> []
  | p0 :: msgs' ->
    let (q, bs) = p0 in
    if (fun (a : int) b -> a = b) q p then bs else peer_boxes msgs' p

(** val recv_source :
    (int -> (int * lbox list) list) -> int -> (int * lbox list) list -> int
    list -> (int * int list) option **)

let rec recv_source sends r recvs l =
  match recvs with
  | [] -> None
  | p0 :: recvs' ->
    let (p, bs) = p0 in
    (match find_box bs l with
     | Some k ->
       Some (p, (shift0 (nth k bs []) (nth k (peer_boxes (sends p) r) []) l))
     | None -> recv_source sends r recvs' l)

(** val region_wire :
    (int -> (int * lbox list) list) -> (int -> (int * lbox list) list) ->
    (int -> (lbox * lbox) list) -> wire_map **)

let region_wire sends recvs copies r l =
  match find (fun bb -> in_lbox (snd bb) l) (copies r) with
  | Some p -> let (sb, tb) = p in (r, (shift0 tb sb l))
  | None ->
    (match recv_source sends r (recvs r) l with
     | Some x -> x
     | None -> (r, l))

(** val lbox_size : lbox -> int **)

let lbox_size b =
  fold_right (fun iv n -> ( * ) (snd iv) n) (Stdlib.Int.succ 0) b

(** val boxes_size : lbox list -> int **)

let boxes_size bs =
  fold_right (fun b n -> (+) (lbox_size b) n) 0 bs

(** val region_recv_count : clayout -> clayout -> int -> int **)

let region_recv_count s t0 r =
  fold_right (fun m n -> (+) (boxes_size (snd m)) n) 0 (region_recvs s t0 r)

type holding = { hd_shape : (int -> int list option);
                 hd_has : (int -> int list -> bool);
                 hd_local : (int -> int list -> int list);
                 hd_global : (int -> int list -> int list) }

(** val device_or_self :
    clayout -> int -> (device -> int list -> int list) -> int list -> int list **)

let device_or_self l w f x =
  match cl_device l w with
  | Some c -> f c x
  | None -> x

(** val clayout_holding : clayout -> holding **)

let clayout_holding l =
  { hd_shape = (fun w ->
    option_map (c_shape (cl_m l) l.cl_ty0) (cl_device l w)); hd_has =
    (fun w i ->
    match cl_device l w with
    | Some c -> c_has (cl_m l) l.cl_ty0 c i
    | None -> false); hd_local = (fun w ->
    device_or_self l w (c_local (cl_m l) l.cl_ty0)); hd_global = (fun w ->
    device_or_self l w (c_global (cl_m l) l.cl_ty0)) }

(** val cl_local_elems : clayout -> int -> int **)

let cl_local_elems l w =
  match cl_device l w with
  | Some c -> prod0 (c_shape (cl_m l) l.cl_ty0 c)
  | None -> 0

(** val region_live_elems : clayout -> clayout -> int -> int **)

let region_live_elems s t0 r =
  (+) (cl_local_elems s r) (cl_local_elems t0 r)

(** val fill_receives : fill -> (int -> bool) -> int -> bool **)

let fill_receives fl desig r =
  match fl with
  | KeepOne -> desig r
  | KeepAll -> true

(** val same_group : mesh -> axis list -> device -> device -> bool **)

let same_group m ps c c' =
  forallb (fun a ->
    (||) (memb a ps) ((fun (a : int) b -> a = b) (c a) (c' a))) (mesh_axes m)

(** val cuts_group : clayout -> axis list -> int -> int list **)

let cuts_group l ps w =
  match cl_device l w with
  | Some c ->
    filter (fun w' ->
      match cl_device l w' with
      | Some c' -> same_group (cl_m l) ps c c'
      | None -> false) l.cl_mesh.pm_ranks
  | None -> []

(** val cpending_wf : clayout -> axis list -> bool **)

let cpending_wf l ps =
  (&&) ((&&) (clayout_wf l) (nodupb ps))
    (forallb (fun a ->
      (&&) (memb a (mesh_axes (cl_m l))) (negb (memb a (cty_axes l.cl_ty0))))
      ps)

(** val cuts_designated : clayout -> axis list -> int -> bool **)

let cuts_designated l pt w =
  match cl_device l w with
  | Some c -> forallb (fun a -> (fun (a : int) b -> a = b) (c a) 0) pt
  | None -> false

(** val group_first_rank : mesh -> axis list -> device -> int **)

let group_first_rank m ps c =
  rank m (fun a -> if memb a ps then 0 else c a)

(** val rsends_to :
    clayout -> axis list -> clayout -> axis list -> fill -> int -> int -> bool **)

let rsends_to s ps t0 pt fl s0 r =
  (&&) (fill_receives fl (cuts_designated t0 pt) r)
    (match cl_device s s0 with
     | Some cs ->
       let in_lead_group = is_lead s (group_first_rank (cl_m s) ps cs) in
       (match cl_device s r with
        | Some cr ->
          if same_parts (cl_m s) s.cl_ty0 cr cs
          then same_group (cl_m s) ps cr cs
          else in_lead_group
        | None -> in_lead_group)
     | None -> false)

(** val reduce_sends :
    clayout -> axis list -> clayout -> axis list -> fill -> int ->
    (int * lbox list) list **)

let reduce_sends s ps t0 pt fl r =
  flat_map (fun p ->
    if rsends_to s ps t0 pt fl r p
    then message p (map (src_local s r) (region_cells s t0 r p))
    else []) t0.cl_mesh.pm_ranks

(** val reduce_recvs :
    clayout -> axis list -> clayout -> axis list -> fill -> int ->
    (int * lbox list) list **)

let reduce_recvs s ps t0 pt fl r =
  flat_map (fun p ->
    if rsends_to s ps t0 pt fl p r
    then message p (map (tgt_local t0 r) (region_cells s t0 p r))
    else []) s.cl_mesh.pm_ranks

(** val reduce_contributions :
    (int -> (int * lbox list) list) -> int -> (int * lbox list) list -> int
    list -> (int * int list) list **)

let reduce_contributions sends r recvs l =
  flat_map (fun e ->
    match find_box (snd e) l with
    | Some k ->
      ((fst e),
        (shift0 (nth k (snd e) []) (nth k (peer_boxes (sends (fst e)) r) [])
          l)) :: []
    | None -> []) recvs

(** val region_reduce_run :
    cmonoid -> clayout -> axis list -> clayout -> axis list -> fill ->
    carrier state -> carrier state **)

let region_reduce_run m s ps t0 pt fl st r l =
  msum m
    (map (fun src -> st (fst src) (snd src))
      (reduce_contributions (reduce_sends s ps t0 pt fl) r
        (reduce_recvs s ps t0 pt fl r) l))

(** val region_reduce_received :
    clayout -> axis list -> clayout -> axis list -> fill -> int -> int **)

let region_reduce_received s ps t0 pt fl r =
  length
    (filter (fun src -> negb ((fun (a : int) b -> a = b) (fst src) r))
      (flat_map
        (reduce_contributions (reduce_sends s ps t0 pt fl) r
          (reduce_recvs s ps t0 pt fl r))
        (positions (clayout_holding t0).hd_shape r)))

(** val cuts_avg_divisor : clayout -> axis list -> int **)

let cuts_avg_divisor s ps =
  group_size (cl_m s) ps
