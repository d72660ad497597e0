(* Random problems of the direct exchange in the command line's notation,
   in three classes, in turn:
   - uneven: one mesh at world rank 0, extents from small primes (often
     fewer elements than devices, so some boxes are empty);
   - cross-mesh: a source and a target mesh of different shapes and sizes
     in one world of at most 12 ranks, each contiguous from a random first
     rank or a permuted list of distinct ranks (so the rank sets are
     disjoint, overlapping or nested);
   - even: Random_problem's well-formed one-mesh problems, which both
     strategies can plan.
   Every dtype.  [problem] reads one through the command's front end. *)


let pick st l = List.nth l (Random.State.int st (List.length l))
let shuffle st l = List.map snd (List.sort compare (List.map (fun x -> (Random.State.bits st, x)) l))

let primes = [ 1; 2; 3; 5; 7; 11; 13; 17; 19; 23; 29 ]
let max_world = 12

(* A mesh of 1 to 3 axes named by [prefix], at most [max_devices] devices. *)
let draw_mesh st prefix max_devices =
  let rec go acc devices k =
    let fits = List.filter (fun s -> devices * s <= max_devices) [ 1; 2; 3; 4; 5 ] in
    if k = 0 || fits = [] then List.rev acc
    else
      let s = pick st fits in
      go ((Printf.sprintf "%s%d" prefix (List.length acc), s) :: acc) (devices * s) (k - 1)
  in
  go [] 1 (1 + Random.State.int st 3)

let mesh_text axes = "{" ^ String.concat ", " (List.map (fun (a, s) -> Printf.sprintf "%s:%d" a s) axes) ^ "}"
let devices axes = List.fold_left (fun acc (_, s) -> acc * s) 1 axes

(* Each axis to one dimension or to none, in random order; the local size
   left out (the ceil block) or, half the time on a sharded dim, written. *)
let draw_type st axes extents =
  let rank = List.length extents in
  let dims = Array.make rank [] in
  List.iter (fun (a, s) -> let d = Random.State.int st (rank + 1) in if d < rank then dims.(d) <- dims.(d) @ [ (a, s) ])
    (shuffle st axes);
  "["
  ^ String.concat ", "
      (List.mapi
         (fun d n ->
           match dims.(d) with
           | [] -> string_of_int n
           | sharded ->
               let p = devices sharded in
               let names = "{" ^ String.concat "," (List.map fst sharded) ^ "}" in
               if Random.State.bool st then Printf.sprintf "%d%s%d" ((n + p - 1) / p) names n
               else names ^ string_of_int n)
         extents)
  ^ "]"

let draw_extents st = List.init (1 + Random.State.int st 3) (fun _ -> pick st primes)

(* Contiguous from a first rank, or distinct ranks in random order. *)
let draw_placement st n =
  if Random.State.bool st then
    let k = Random.State.int st (max_world - n + 1) in
    (Printf.sprintf " @ %d" k, k + n)
  else
    let ranks = List.filteri (fun i _ -> i < n) (shuffle st (List.init max_world Fun.id)) in
    (" @ [" ^ String.concat ", " (List.map string_of_int ranks) ^ "]", 1 + List.fold_left max 0 ranks)

type drawn = { meshes : Problem.meshes; from : string; to_ : string; dtype : string; both : bool; what : string }

let draw st i =
  let dtype = pick st (List.map (fun (d : Dtype.t) -> d.name) Dtype.all) in
  match i mod 3 with
  | 0 ->
      let axes = draw_mesh st "m" max_world in
      let extents = draw_extents st in
      { meshes = Problem.One (mesh_text axes); from = draw_type st axes extents; to_ = draw_type st axes extents;
        dtype; both = false; what = "uneven" }
  | 1 ->
      let sa = draw_mesh st "s" max_world and ta = draw_mesh st "t" max_world in
      let sp, _ = draw_placement st (devices sa) and tp, _ = draw_placement st (devices ta) in
      let extents = draw_extents st in
      { meshes = Problem.Two (mesh_text sa ^ sp, mesh_text ta ^ tp); from = draw_type st sa extents;
        to_ = draw_type st ta extents; dtype; both = false; what = "cross-mesh" }
  | _ ->
      let spec =
        { Random_problem.max_devices = max_world; axis_sizes = [ 1; 2; 3; 4 ]; max_axes = 3; max_rank = 3;
          multipliers = [ 1; 2; 3 ]; max_global_elems = 4096; dtypes = List.map (fun (d : Dtype.t) -> d.name) Dtype.all }
      in
      let q = Random_problem.draw spec st in
      { meshes = Problem.One q.mesh; from = q.src; to_ = q.tgt; dtype = q.dtype; both = true; what = "even" }

let describe d =
  let m = match d.meshes with Problem.One m -> m | Problem.Two (f, t) -> f ^ " -> " ^ t in
  Printf.sprintf "%s: %s %s -> %s %s" d.what m d.from d.to_ d.dtype

let problem d strategy = Problem.make_placed ~meshes:d.meshes ~strategy ~from:d.from ~to_:d.to_ ~dtype:(Some d.dtype)
