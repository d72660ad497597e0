(* Random well-formed redistribution problems, in the command line's
   notation.  Each mesh axis goes to one dimension of each type or to none,
   in random order; every extent is a multiple of what both types shard it
   by, so both types are well-formed and have the same global shape. *)

type t = { mesh : string; src : string; tgt : string; dtype : string }

type spec = {
  max_devices : int;
  axis_sizes : int list;      (* sizes an axis may have *)
  max_axes : int;             (* meshes have 1 to max_axes axes *)
  max_rank : int;             (* arrays have rank 1 to max_rank *)
  multipliers : int list;     (* extent = lcm of both shardings * one of these *)
  max_global_elems : int;
  dtypes : string list;
}

let pick st l = List.nth l (Random.State.int st (List.length l))
let rec gcd a b = if b = 0 then a else gcd b (a mod b)
let lcm a b = a / gcd a b * b

(* Draws until source and target differ (equal types need no
   communication) and the global array fits. *)
let rec draw spec st =
  let rec axes acc devices n =
    if n = 0 then List.rev acc
    else
      let s = pick st (List.filter (fun s -> devices * s <= spec.max_devices) spec.axis_sizes) in
      axes ((Printf.sprintf "m%d" (List.length acc), s) :: acc) (devices * s) (n - 1)
  in
  let mesh = axes [] 1 (1 + Random.State.int st spec.max_axes) in
  let rank = 1 + Random.State.int st spec.max_rank in
  let assign () =
    let shuffled = List.map snd (List.sort compare (List.map (fun a -> (Random.State.bits st, a)) mesh)) in
    let dims = Array.make rank [] in
    List.iter (fun a -> let d = Random.State.int st (rank + 1) in if d < rank then dims.(d) <- dims.(d) @ [ a ]) shuffled;
    dims
  in
  let src = assign () and tgt = assign () in
  let shards dims = List.fold_left (fun acc (_, s) -> acc * s) 1 dims in
  let extents = Array.init rank (fun d -> lcm (shards src.(d)) (shards tgt.(d)) * pick st spec.multipliers) in
  let show dims =
    "["
    ^ String.concat ", "
        (List.init rank (fun d ->
             if dims.(d) = [] then string_of_int extents.(d)
             else Printf.sprintf "{%s}%d" (String.concat "," (List.map fst dims.(d))) extents.(d)))
    ^ "]"
  in
  if Array.fold_left ( * ) 1 extents > spec.max_global_elems || show src = show tgt then draw spec st
  else
    { mesh = "{" ^ String.concat ", " (List.map (fun (n, s) -> Printf.sprintf "%s:%d" n s) mesh) ^ "}";
      src = show src; tgt = show tgt; dtype = pick st spec.dtypes }
