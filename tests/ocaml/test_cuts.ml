(* The extracted composed cuts (Part 3) and the exchange lowered to region
   messages, against an independent reference on random small problems:
   nested uneven blocks in either order, block-cyclic, block-cyclic then
   block, on one mesh and between two meshes placed anywhere in a world;
   and the reducing exchange's region messages (Lowercutsred.v) with
   pending sums and maxima on either side, run as a runtime would, and
   with avg (Lowercutsavg.v: the sums, then one division). *)
open Redist_core

let seed = 20260526

let prod = List.fold_left ( * ) 1

(* ---- the reference: cuts applied to lists of global indices -------------- *)

let chunk_of m xs c = List.fold_left (fun acc x -> (acc * List.assoc x m) + c x) 0 xs

(* Part [j] of [P] of the list [els]: ceil blocks, or blocks of [b] dealt round-robin. *)
let take_part k parts j els =
  let e = List.length els in
  match k with
  | Block _ ->
      let b = (e + parts - 1) / parts in
      List.filteri (fun p _ -> b > 0 && p / b = j) els
  | Cyclic (_, b) -> List.filteri (fun p _ -> p / b mod parts = j) els

(* The global indices device [c] holds in one dimension, in local order. *)
let reference_dim m (cuts, n) c =
  List.fold_left
    (fun els k ->
      let xs = match k with Block xs | Cyclic (xs, _) -> xs in
      take_part k (prod (List.map (fun x -> List.assoc x m) xs)) (chunk_of m xs c) els)
    (List.init n Fun.id) cuts

let expand ivs = List.concat_map (fun (lo, n) -> List.init n (fun t -> lo + t)) ivs

(* ---- problems ------------------------------------------------------------ *)

let gen_mesh = Mesh_gen.mesh ~max_axes:3 ~names:6 ~max_devices:16 ~sizes:[ 1; 2; 2; 3; 4 ]

(* Each dimension's axes split into cuts, outermost first, each a ceil block
   or blocks of 1 to 4 dealt round-robin. *)
let gen_cty m rank =
  let open QCheck.Gen in
  Mesh_gen.dims_axes m rank >>= fun dims ->
  let gen_cuts xs =
    shuffle_l xs >>= fun xs ->
    let rec split = function
      | [] -> return []
      | x :: rest ->
          bool >>= fun group ->
          (match rest with
           | y :: rest' when group -> return ([ x; y ], rest')
           | _ -> return ([ x ], rest))
          >>= fun (axes, rest) ->
          split rest >>= fun cuts ->
          oneof [ return (Block axes); map (fun b -> Cyclic (axes, b)) (int_range 1 4) ] >>= fun k ->
          return (k :: cuts)
    in
    split xs
  in
  flatten_l (List.map gen_cuts dims) >>= fun cuts ->
  list_repeat rank (oneofl [ 0; 1; 2; 3; 5; 7; 11; 13; 17; 30 ]) >>= fun ns ->
  return (List.combine cuts ns)

let gen_problem =
  let open QCheck.Gen in
  gen_mesh >>= fun ma ->
  gen_mesh >>= fun mb ->
  Mesh_gen.placed ~spare:4 ma >>= fun pa ->
  Mesh_gen.placed ~spare:4 mb >>= fun pb ->
  bool >>= fun same ->
  let pb = if same then pa else pb in
  int_range 0 2 >>= fun rank ->
  gen_cty pa.pm_mesh rank >>= fun ta ->
  gen_cty pb.pm_mesh rank >>= fun tb ->
  let tb = List.map2 (fun (cuts, _) (_, n) -> (cuts, n)) tb ta in
  return ({ cl_mesh = pa; cl_ty0 = ta }, { cl_mesh = pb; cl_ty0 = tb })

let pp_cut = function
  | Block xs -> Printf.sprintf "{%s}" (String.concat "," (List.map string_of_int xs))
  | Cyclic (xs, b) -> Printf.sprintf "{%s}%%%d" (String.concat "," (List.map string_of_int xs)) b

let pp_layout l =
  Printf.sprintf "{%s} @ [%s] [%s]"
    (String.concat ", " (List.map (fun (x, s) -> Printf.sprintf "%d:%d" x s) l.cl_mesh.pm_mesh))
    (String.concat ", " (List.map string_of_int l.cl_mesh.pm_ranks))
    (String.concat ", " (List.map (fun (ks, n) -> String.concat "" (List.map pp_cut ks) ^ string_of_int n) l.cl_ty0))

let world s t = 1 + List.fold_left max 0 (s.cl_mesh.pm_ranks @ t.cl_mesh.pm_ranks)

(* ---- the checks ---------------------------------------------------------- *)

(* Row-major positions of a shape, and of a local box. *)
let rec positions = function
  | [] -> [ [] ]
  | n :: rest -> List.concat_map (fun x -> List.map (fun l -> x :: l) (positions rest)) (List.init n Fun.id)

let box_positions b =
  List.map (List.map2 (fun (o, _) x -> o + x) b) (positions (List.map snd b))

(* The reference holding of world rank [w]: per dimension, global indices in local order. *)
let reference l w =
  Option.map (fun c -> List.map (fun d -> reference_dim l.cl_mesh.pm_mesh d c) l.cl_ty0) (cl_device l w)

let element held pos = List.map2 List.nth held pos

(* The extracted holding is the reference's: shapes, intervals, local and global indices. *)
let holding_ok l w =
  match (cl_device l w, reference l w) with
  | None, None -> true
  | Some c, Some held ->
      let m = cl_m l and t = l.cl_ty0 in
      c_shape m t c = List.map List.length held
      && List.map expand (c_intervals m t c) = List.map (List.sort compare) held
      && List.for_all
           (fun pos ->
             let i = element held pos in
             c_global m t c pos = i && c_has m t c i && c_local m t c i = pos)
           (positions (c_shape m t c))
  | _ -> false

(* Every element of every rank, moved by the region messages alone. *)
let regions_ok s t =
  let ranks = List.init (world s t) Fun.id in
  let src w = Option.get (reference s w) and tgt = reference t in
  let filled = Hashtbl.create 64 in
  let put r pos v = Hashtbl.replace filled (r, pos) (v :: Option.value ~default:[] (Hashtbl.find_opt filled (r, pos))) in
  let same_extents a b = List.map snd a = List.map snd b in
  let paired = ref true and moved = Array.make (world s t) 0 in
  let move p sb r tb =
    if not (same_extents sb tb) then paired := false
    else List.iter2 (fun sp tp -> put r tp (element (src p) sp)) (box_positions sb) (box_positions tb)
  in
  List.iter
    (fun r ->
      List.iter (fun (sb, tb) -> move r sb r tb) (region_copies s t r);
      List.iter
        (fun (p, tbs) ->
          match List.assoc_opt r (region_sends s t p) with
          | Some sbs when List.length sbs = List.length tbs ->
              List.iter2 (fun sb tb -> move p sb r tb) sbs tbs;
              moved.(r) <- moved.(r) + List.fold_left (fun a b -> a + lbox_size b) 0 tbs
          | _ -> paired := false)
        (region_recvs s t r);
      (* every send has its receive *)
      List.iter
        (fun (p, _) -> if not (List.mem_assoc r (region_recvs s t p)) then paired := false)
        (region_sends s t r))
    ranks;
  let rank_ok r =
    match tgt r with
    | None -> moved.(r) = 0 && region_copies s t r = [] && not (Hashtbl.mem filled (r, []))
    | Some held ->
        let target = List.map (element held) (positions (List.map List.length held)) in
        let has_src i = match reference s r with Some h -> List.for_all2 List.mem i h | None -> false in
        List.for_all
          (fun pos -> Hashtbl.find_opt filled (r, pos) = Some [ element held pos ])
          (positions (List.map List.length held))
        && moved.(r) = List.length (List.filter (fun i -> not (has_src i)) target)
        && moved.(r) = region_recv_count s t r
  in
  !paired && List.for_all rank_ok ranks

let judge (s, t) =
  let ranks = List.init (world s t) Fun.id in
  if not (clayout_wf s && clayout_wf t) then Some "layout rejected"
  else if not (List.for_all (holding_ok s) ranks && List.for_all (holding_ok t) ranks) then
    Some "holding differs from the reference"
  else if not (regions_ok s t) then Some "region messages do not give every rank its target"
  else None

let run_cases name gen n seed () =
  let rand = Random.State.make [| seed |] in
  Printf.printf "%s: seed %d\n%!" name seed;
  let bad = ref [] in
  for _ = 1 to n do
    let s, t = QCheck.Gen.generate1 ~rand gen in
    match judge (s, t) with
    | None -> ()
    | Some why -> bad := Printf.sprintf "%s -> %s: %s" (pp_layout s) (pp_layout t) why :: !bad
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problems" n) 0 (List.length !bad)

(* ---- pending reductions: the reducing region messages ------------------- *)

(* An operation as the runtime applies it: its identity and combination. *)
type op = { name : string; identity : int; combine : int -> int -> int }

let sum_op = { name = "sum"; identity = 0; combine = ( + ) }
let max_op = { name = "max"; identity = min_int; combine = max }

(* A problem of composed cuts with pending axes drawn among each mesh's axes
   that no cut names; a fill that the operation allows (KeepAll: max only). *)
let gen_pending_problem =
  let open QCheck.Gen in
  let free_axes l = List.filter (fun (x, _) -> not (List.mem x (cty_axes l.cl_ty0))) l.cl_mesh.pm_mesh in
  let subset l = map (List.filter_map Fun.id) (flatten_l (List.map (fun (x, _) -> map (fun b -> if b then Some x else None) bool) (free_axes l))) in
  gen_problem >>= fun (s, t) ->
  subset s >>= fun ps ->
  subset t >>= fun pt ->
  oneofl [ (sum_op, KeepOne); (max_op, KeepOne); (max_op, KeepAll) ] >>= fun (op, fl) ->
  return (s, ps, t, pt, op, fl)

(* The world ranks of [w]'s group over [ps], by comparing coordinates. *)
let reference_group l ps w =
  match cl_device l w with
  | None -> []
  | Some c ->
      let outside = List.filter (fun (x, _) -> not (List.mem x ps)) l.cl_mesh.pm_mesh in
      List.filter
        (fun w' -> match cl_device l w' with
           | Some c' -> List.for_all (fun (x, _) -> c x = c' x) outside
           | None -> false)
        l.cl_mesh.pm_ranks

let value_of i = (List.fold_left (fun acc x -> (acc * 31) + x) 7 i) mod 1000

(* A source state holding pending reductions of [value_of]: in each group,
   random contributions that combine to the value. *)
let pending_source rand s ps op ranks =
  let st = Hashtbl.create 64 in
  List.iter
    (fun w ->
      match reference s w with
      | Some held ->
          let group = reference_group s ps w in
          if List.hd group = w then
            List.iter
              (fun pos ->
                let v = value_of (element held pos) in
                let k = List.length group in
                let parts =
                  if op.name = "sum" then
                    let rs = List.init (k - 1) (fun _ -> Random.State.int rand 101 - 50) in
                    rs @ [ v - List.fold_left ( + ) 0 rs ]
                  else
                    let j = Random.State.int rand k in
                    List.init k (fun n -> if n = j then v else v - Random.State.int rand 51)
                in
                List.iter2 (fun m x -> Hashtbl.replace st (m, pos) x) group parts)
              (positions (List.map List.length held))
      | _ -> ())
    ranks;
  st

(* Every target position combines, in the order of the receive entries, the
   matching source elements; the fill, the group meaning, the combination
   order and the traffic against the reference. *)
let reduce_ok rand (s, ps, t, pt, op, fl) =
  let ranks = List.init (world s t) Fun.id in
  let st = pending_source rand s ps op ranks in
  let src_index w = let rec go k = function [] -> max_int | x :: r -> if x = w then k else go (k + 1) r in go 0 s.cl_mesh.pm_ranks in
  let group_size = prod (List.map (fun x -> List.assoc x s.cl_mesh.pm_mesh) ps) in
  let result = Hashtbl.create 64 in
  let ok = ref true in
  List.iter
    (fun r ->
      let recvs = reduce_recvs s ps t pt fl r in
      let peers = List.map fst recvs in
      if List.sort compare (List.map src_index peers) <> List.map src_index peers then ok := false;
      let received = ref 0 in
      List.iter
        (fun (p, tbs) ->
          match List.assoc_opt r (reduce_sends s ps t pt fl p) with
          | Some sbs when List.length sbs = List.length tbs && List.for_all2 (fun a b -> List.map snd a = List.map snd b) sbs tbs ->
              List.iter2
                (fun sb tb ->
                  List.iter2
                    (fun sp tp ->
                      let acc = Option.value ~default:op.identity (Hashtbl.find_opt result (r, tp)) in
                      Hashtbl.replace result (r, tp) (op.combine acc (Hashtbl.find st (p, sp)));
                      if p <> r then incr received)
                    (box_positions sb) (box_positions tb))
                sbs tbs
          | _ -> ok := false)
        recvs;
      List.iter (fun (p, _) -> if not (List.mem_assoc r (reduce_recvs s ps t pt fl p)) then ok := false) (reduce_sends s ps t pt fl r);
      match reference t r with
      | None -> if recvs <> [] then ok := false
      | Some held ->
          let c = Option.get (cl_device t r) in
          let receives = fl = KeepAll || List.for_all (fun x -> c x = 0) pt in
          let has_src i = match reference s r with Some h -> List.for_all2 List.mem i h | None -> false in
          let tgt_positions = positions (List.map List.length held) in
          let missing = List.length (List.filter (fun pos -> not (has_src (element held pos))) tgt_positions) in
          let want_recv = if receives then ((group_size - 1) * List.length tgt_positions) + missing else 0 in
          List.iter
            (fun pos ->
              let got = Option.value ~default:op.identity (Hashtbl.find_opt result (r, pos)) in
              if got <> (if receives then value_of (element held pos) else op.identity) then ok := false)
            tgt_positions;
          if !received <> want_recv || region_reduce_received s ps t pt fl r <> want_recv then ok := false)
    ranks;
  (* the target's pending meaning: each target group combines to the value *)
  List.iter
    (fun r ->
      match reference t r with
      | None -> ()
      | Some held ->
          List.iter
            (fun pos ->
              let v = List.fold_left (fun acc w -> op.combine acc (Option.value ~default:op.identity (Hashtbl.find_opt result (w, pos)))) op.identity (reference_group t pt r) in
              if v <> value_of (element held pos) then ok := false)
            (positions (List.map List.length held)))
    ranks;
  !ok

let run_pending_cases n seed () =
  let rand = Random.State.make [| seed |] in
  Printf.printf "pending reductions: seed %d\n%!" seed;
  let bad = ref [] in
  for _ = 1 to n do
    let ((s, ps, t, pt, op, fl) as pb) = QCheck.Gen.generate1 ~rand gen_pending_problem in
    let why =
      if not (cpending_wf s ps && cpending_wf t pt) then Some "layout rejected"
      else if not (reduce_ok rand pb) then Some "reducing region messages do not give every target group its value"
      else None
    in
    match why with
    | None -> ()
    | Some why ->
        let axes xs = String.concat "," (List.map string_of_int xs) in
        bad := Printf.sprintf "%s %s{%s} -> %s %s{%s} (%s): %s" (pp_layout s) op.name (axes ps) (pp_layout t) op.name (axes pt)
                 (if fl = KeepAll then "keep all" else "keep one") why :: !bad
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problems" n) 0 (List.length !bad)

(* ---- avg: the reducing exchange adding, then one division (Lowercutsavg.v) *)

(* Floats adding: the runtime's avg before its one division. *)
let float_sum = { zero = Obj.repr 0.0; add0 = (fun a b -> Obj.repr ((Obj.obj a : float) +. (Obj.obj b : float))) }

(* The extracted messages run with floats adding ([region_reduce_run]), the
   target filled on every member (KeepAll), then every position divided
   once by [cuts_avg_divisor]: the divisor is the source's group size, every
   target member holds its element's sum over that size (small integers:
   exact), and each target group over [pt] averages back to it. *)
let avg_ok rand (s, ps, t, pt) =
  let ranks = List.init (world s t) Fun.id in
  let st = pending_source rand s ps sum_op ranks in
  let source w l = Obj.repr (float_of_int (Option.value ~default:0 (Hashtbl.find_opt st (w, l)))) in
  let n = prod (List.map (fun x -> List.assoc x s.cl_mesh.pm_mesh) ps) in
  let ran = region_reduce_run float_sum s ps t pt KeepAll source in
  let divided w l = (Obj.obj (ran w l) : float) /. float_of_int (cuts_avg_divisor s ps) in
  cuts_avg_divisor s ps = n
  && List.for_all
       (fun r ->
         match reference t r with
         | None -> true
         | Some held ->
             let group = reference_group t pt r in
             List.for_all
               (fun pos ->
                 let want = float_of_int (value_of (element held pos)) /. float_of_int n in
                 let average = List.fold_left (fun acc w -> acc +. divided w pos) 0.0 group /. float_of_int (List.length group) in
                 divided r pos = want && Float.abs (average -. want) <= 1e-12 *. Float.max 1.0 (Float.abs want))
               (positions (List.map List.length held)))
       ranks

let run_avg_cases n seed () =
  let rand = Random.State.make [| seed |] in
  Printf.printf "pending avg: seed %d\n%!" seed;
  let bad = ref [] in
  for _ = 1 to n do
    let s, ps, t, pt, _, _ = QCheck.Gen.generate1 ~rand gen_pending_problem in
    let why =
      if not (cpending_wf s ps && cpending_wf t pt) then Some "layout rejected"
      else if not (avg_ok rand (s, ps, t, pt)) then Some "the sums divided once do not average every target group to its value"
      else None
    in
    match why with
    | None -> ()
    | Some why ->
        let axes xs = String.concat "," (List.map string_of_int xs) in
        bad := Printf.sprintf "%s avg{%s} -> %s avg{%s}: %s" (pp_layout s) (axes ps) (pp_layout t) (axes pt) why :: !bad
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problems" n) 0 (List.length !bad)

(* ---- the model's examples ------------------------------------------------ *)

let x2y2 = [ (0, 2); (1, 2) ]
let on cuts n = { cl_mesh = placed_at x2y2 0; cl_ty0 = [ (cuts, n) ] }

let examples () =
  let ivs l = List.init 4 (fun r -> c_intervals (cl_m l) l.cl_ty0 (device_of_rank (cl_m l) r)) in
  let check name want l = Alcotest.(check (list (list (list (pair int int))))) name want (ivs l) in
  check "{x}{y}5" [ [ [ (0, 2) ] ]; [ [ (2, 1) ] ]; [ [ (3, 1) ] ]; [ [ (4, 1) ] ] ] (on [ Block [ 0 ]; Block [ 1 ] ] 5);
  check "{y}{x}5" [ [ [ (0, 2) ] ]; [ [ (3, 1) ] ]; [ [ (2, 1) ] ]; [ [ (4, 1) ] ] ] (on [ Block [ 1 ]; Block [ 0 ] ] 5);
  check "{x}%2 5" [ [ [ (0, 2); (4, 1) ] ]; [ [ (0, 2); (4, 1) ] ]; [ [ (2, 2) ] ]; [ [ (2, 2) ] ] ]
    (on [ Cyclic ([ 0 ], 2) ] 5);
  (* {x}%2 5 -> {x}{y}5: rank 1 (x0 y1) needs [2,3), held by x1; rank 0 keeps its own. *)
  let s = on [ Cyclic ([ 0 ], 2) ] 5 and t = on [ Block [ 0 ]; Block [ 1 ] ] 5 in
  Alcotest.(check (list (pair int (list (list (pair int int)))))) "rank 1 receives"
    [ (2, [ [ (0, 1) ] ]) ] (region_recvs s t 1);
  (* rank 3, rank 2's replica, sends nothing; rank 0 sends [4,5) to rank 3 *)
  Alcotest.(check (list (pair int (list (list (pair int int)))))) "rank 2 sends"
    [ (1, [ [ (0, 1) ] ]) ] (region_sends s t 2);
  Alcotest.(check (list (pair int (list (list (pair int int)))))) "rank 3 sends" [] (region_sends s t 3);
  Alcotest.(check (list (pair int (list (list (pair int int)))))) "rank 0 sends"
    [ (3, [ [ (2, 1) ] ]) ] (region_sends s t 0);
  Alcotest.(check (option string)) "judged" None (judge (s, t))

let () =
  Tap.run "cuts"
    [ ("examples", [ Alcotest.test_case "Part 3's examples and one exchange" `Quick examples ]);
      ("random",
        [ Alcotest.test_case "3000 composed-cut problems, one and two meshes" `Quick
            (run_cases "composed cuts" gen_problem 3000 seed);
          Alcotest.test_case "2000 composed-cut problems with pending sums and maxima" `Quick
            (run_pending_cases 2000 seed);
          Alcotest.test_case "1000 composed-cut problems with pending avg" `Quick (run_avg_cases 1000 seed) ] ) ]
