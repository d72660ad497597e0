(* The extracted Part 2 core (placed meshes, ceil blocks, the exchange, the
   lower bound, plans with a strategy) on random problems: uneven sizes,
   two meshes placed anywhere in one world, and even one-mesh problems. *)
open Redist_core

let seed = 20261123

let prod = List.fold_left ( * ) 1

(* ---- problems ---------------------------------------------------------- *)

(* Up to 3 axes and 16 devices, names drawn from 0..5. *)
let gen_mesh = Mesh_gen.mesh ~max_axes:3 ~names:6 ~max_devices:16 ~sizes:[ 1; 2; 2; 3; 4; 5 ]

let gen_placed = Mesh_gen.placed ~spare:6

let gen_axes = Mesh_gen.dims_axes

(* Sizes include primes and sizes below the number of devices (empty boxes). *)
let gen_uneven =
  let open QCheck.Gen in
  gen_mesh >>= fun ma ->
  gen_mesh >>= fun mb ->
  gen_placed ma >>= fun pa ->
  gen_placed mb >>= fun pb ->
  bool >>= fun same ->
  let pb = if same then pa else pb in
  int_range 1 2 >>= fun rank ->
  list_repeat rank (oneofl [ 1; 2; 3; 5; 7; 11; 13; 17; 30; 31 ]) >>= fun ns ->
  gen_axes pa.pm_mesh rank >>= fun a ->
  gen_axes pb.pm_mesh rank >>= fun b ->
  return ({ ly_mesh = pa; ly_ty = List.combine a ns }, { ly_mesh = pb; ly_ty = List.combine b ns })

let rec gcd a b = if b = 0 then a else gcd b (a mod b)
let lcm a b = a / gcd a b * b

let gen_even =
  let open QCheck.Gen in
  gen_mesh >>= fun m ->
  int_range 1 3 >>= fun rank ->
  gen_axes m rank >>= fun a ->
  gen_axes m rank >>= fun b ->
  list_repeat rank (oneofl [ 1; 1; 2; 3 ]) >>= fun extra ->
  let shards xs = prod (List.map (fun x -> List.assoc x m) xs) in
  let ns = List.map2 (fun (xa, xb) k -> lcm (shards xa) (shards xb) * k) (List.combine a b) extra in
  return (m, List.combine a ns, List.combine b ns)

let pp_layout l =
  Printf.sprintf "{%s} @ [%s] [%s]"
    (String.concat ", " (List.map (fun (x, s) -> Printf.sprintf "%d:%d" x s) l.ly_mesh.pm_mesh))
    (String.concat ", " (List.map string_of_int l.ly_mesh.pm_ranks))
    (String.concat ", "
       (List.map
          (fun (xs, n) -> Printf.sprintf "{%s}%d" (String.concat "," (List.map string_of_int xs)) n)
          l.ly_ty))

let world s t = 1 + List.fold_left max 0 (s.ly_mesh.pm_ranks @ t.ly_mesh.pm_ranks)

(* ---- what every exchange must satisfy ----------------------------------- *)

(* [None] when good, else why not.  The exchange is run on labels (every
   element is its own global index), so its data movement is checked
   element by element, and its traffic is counted from that run. *)
let judge_exchange s t =
  let h = spread_holder s t in
  let box_elements = function Some b -> box_size b | None -> 0 in
  let replicas l =
    prod (List.map snd l.ly_mesh.pm_mesh)
    / prod (List.map (fun (xs, _) -> prod (List.map (fun x -> List.assoc x l.ly_mesh.pm_mesh) xs)) l.ly_ty)
  in
  let covers l =
    (* Every index is held by exactly [replicas] ranks: the boxes tile the array. *)
    List.fold_left (fun acc w -> acc + box_elements (pl_box l w)) 0 l.ly_mesh.pm_ranks
    = prod (List.map snd l.ly_ty) * replicas l
  in
  let rank_ok r =
    match pl_box t r with
    | None -> exchange_received s t h r = 0 && recv_lower_bound s t r = 0
    | Some tb ->
        let moved = ref 0 in
        let data_ok =
          List.for_all
            (fun l ->
              let src, l' = exchange_wire s t h r l in
              if src <> r then incr moved;
              match pl_box s src with
              | Some sb ->
                  List.mem l' (box_indices (box_shape sb)) && box_global sb l' = box_global tb l
              | None -> false)
            (box_indices (box_shape tb))
        in
        (* The messages as boxes: they tile the target box, and those from
           other ranks add up to the traffic. *)
        let msgs = recv_messages s t r in
        let cells_from p = List.fold_left (fun a (src, c) -> if p src then a + box_size c else a) 0 msgs in
        (* [moved] is [exchange_received], counted here from the same run. *)
        data_ok
        && cells_from (fun _ -> true) = box_size tb
        && cells_from (fun src -> src <> r) = !moved
        && !moved = recv_lower_bound s t r
        && !moved = List.length (missing s t r)
  in
  if not (layouts_wf s t) then Some "layouts rejected"
  else if not (covers s && covers t) then Some "boxes do not tile the array"
  else
    match List.find_opt (fun r -> not (rank_ok r)) (List.init (world s t) Fun.id) with
    | Some r -> Some (Printf.sprintf "rank %d: wrong data or traffic not the bound" r)
    | None -> None

let uneven_problems () =
  let rand = Random.State.make [| seed |] in
  Printf.printf "uneven and cross-mesh problems: seed %d\n%!" seed;
  let n = 10_000 in
  let bad = ref [] in
  for _ = 1 to n do
    let s, t = QCheck.Gen.generate1 ~rand gen_uneven in
    match judge_exchange s t with
    | None -> ()
    | Some why -> bad := Printf.sprintf "%s -> %s: %s" (pp_layout s) (pp_layout t) why :: !bad
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problems" n) 0 (List.length !bad)

(* Even problems on one mesh: the exchange attains the bound, Part 1's printed
   bound is the same number, the collective plan never receives less, and
   auto picks the smaller busiest-rank traffic. *)
let even_problems () =
  let rand = Random.State.make [| seed + 1 |] in
  let n = 2_000 in
  let bad = ref [] in
  for _ = 1 to n do
    let m, src, tgt = QCheck.Gen.generate1 ~rand gen_even in
    let s = { ly_mesh = placed_at m 0; ly_ty = src } and t = { ly_mesh = placed_at m 0; ly_ty = tgt } in
    let ranks = List.init (mesh_size m) Fun.id in
    let report sp = match xcheck s t sp with OK rep -> Some rep | Error _ -> None in
    let busiest rep = List.fold_left (fun a r -> max a (rep.xr_recv r)) 0 ranks in
    let why =
      match judge_exchange s t, plan_with StratCollectives s t, plan_with StratAuto s t with
      | Some why, _, _ -> Some why
      | None, Some coll, Some auto -> (
          match report coll, report ByExchange, report auto with
          | Some c, Some x, Some a ->
              if not (List.for_all (fun r -> lower_bound_recv m src tgt r = recv_lower_bound s t r) ranks)
              then Some "Part 1's printed bound differs"
              else if not (List.for_all (fun r -> c.xr_recv r >= recv_lower_bound s t r) ranks)
              then Some "collectives receive less than the bound"
              else if busiest a > min (busiest c) (busiest x) then Some "auto is not the cheaper"
              else if c.xr_peak > max (local_size m src) (local_size m tgt) then Some "peak"
              else None
          | _ -> Some "checker rejects a planned plan")
      | _ -> Some "no plan for an even problem"
    in
    match why with
    | None -> ()
    | Some why -> bad := Printf.sprintf "%s -> %s: %s" (pp_layout s) (pp_layout t) why :: !bad
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problems" n) 0 (List.length !bad)

(* ---- fixed examples ------------------------------------------------------ *)

(* The issue's example: collectives receive 208 on the busiest rank, the
   exchange 60, the bound. *)
let issue_example () =
  let m = [ (0, 6); (1, 10) ] in
  let s = { ly_mesh = placed_at m 0; ly_ty = [ ([ 0 ], 60); ([ 1 ], 60) ] }
  and t = { ly_mesh = placed_at m 0; ly_ty = [ ([ 1 ], 60); ([ 0 ], 60) ] } in
  Alcotest.(check int) "exchange busiest" 60 (exchange_busiest s t);
  Alcotest.(check bool) "auto picks the exchange" true (plan_with StratAuto s t = Some ByExchange)

(* 50257 rows over 8 devices: blocks of 6283, the last 6276; moved to 4
   devices on ranks 8..11, which receive everything. *)
let vocabulary () =
  let s = { ly_mesh = placed_at [ (0, 8) ] 0; ly_ty = [ ([ 0 ], 50257) ] }
  and t = { ly_mesh = placed_at [ (0, 4) ] 8; ly_ty = [ ([ 0 ], 50257) ] } in
  Alcotest.(check (option (list (pair int int)))) "last source block" (Some [ (43981, 6276) ]) (pl_box s 7);
  Alcotest.(check (list int)) "received per world rank"
    [ 0; 0; 0; 0; 0; 0; 0; 0; 12565; 12565; 12565; 12562; 0 ]
    (List.init 13 (recv_lower_bound s t));
  Alcotest.(check bool) "collectives cannot" true (plan_with StratCollectives s t = None);
  Alcotest.(check bool) "auto plans by exchange" true (plan_with StratAuto s t = Some ByExchange)

let () =
  Tap.run "exchange"
    [ ("examples",
        [ Alcotest.test_case "issue example" `Quick issue_example;
          Alcotest.test_case "uneven vocabulary, cross-mesh" `Quick vocabulary ] );
      ("random",
        [ Alcotest.test_case "10000 uneven and cross-mesh problems" `Quick uneven_problems;
          Alcotest.test_case "2000 even problems, both strategies" `Quick even_problems ] ) ]
