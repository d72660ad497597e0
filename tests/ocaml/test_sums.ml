(* The extracted pending-sum planner (Sumstrategy.v) on random problems: 1 to
   3 pending axes, to sharded, replicated and pending targets, even on one
   mesh, uneven and cross-mesh.  Every plan of every strategy must be
   accepted by the checker, stay within the memory bound, receive at least
   the printed lower bound, and, run on integers by the extracted semantics,
   leave every target group summing to its box of the global array. *)
open Redist_core

let seed = 20261124

let prod = List.fold_left ( * ) 1

(* ---- problems ---------------------------------------------------------- *)

(* At least 2 axes so that something is left to shard beside the pending ones. *)
let gen_mesh = Mesh_gen.mesh ~max_axes:4 ~names:6 ~max_devices:16 ~sizes:[ 1; 2; 2; 3; 4 ]

let gen_placed = Mesh_gen.placed ~spare:5

(* Up to [most] distinct axes of [axes] (possibly none). *)
let gen_subset ~most axes =
  let open QCheck.Gen in
  shuffle_l axes >>= fun axes ->
  int_range 0 (min most (List.length axes)) >>= fun k ->
  return (List.filteri (fun i _ -> i < k) axes)

(* Each axis goes to one dimension or to none, in a random order. *)
let gen_axes axes rank =
  let open QCheck.Gen in
  shuffle_l axes >>= fun axes ->
  list_repeat (List.length axes) (int_range 0 rank) >>= fun where ->
  return
    (List.init rank (fun d ->
         List.concat (List.map2 (fun x w -> if w = d then [ x ] else []) axes where)))

(* The pending axes first (1 to 3), the types over the other axes; the target
   has pending axes one time in three (possibly the source's). *)
let gen_sides ms mt =
  let open QCheck.Gen in
  let names m = List.map fst m in
  gen_subset ~most:3 (names ms) >>= fun ps ->
  (if ps = [] then oneofl (names ms) >>= fun a -> return [ a ] else return ps) >>= fun ps ->
  frequency [ (2, return []); (1, gen_subset ~most:2 (names mt)) ] >>= fun pt ->
  let free m used = List.filter (fun x -> not (List.mem x used)) (names m) in
  return (ps, pt, free ms ps, free mt pt)

let rec gcd a b = if b = 0 then a else gcd b (a mod b)
let lcm a b = a / gcd a b * b
let shards m xs = prod (List.map (fun x -> List.assoc x m) xs)

let gen_even =
  let open QCheck.Gen in
  gen_mesh >>= fun m ->
  gen_sides m m >>= fun (ps, pt, fs, ft) ->
  int_range 1 3 >>= fun rank ->
  gen_axes fs rank >>= fun a ->
  gen_axes ft rank >>= fun b ->
  list_repeat rank (oneofl [ 1; 1; 2; 3 ]) >>= fun extra ->
  (* Sometimes a multiple of the pending axes' sizes, so a reduce-scatter applies. *)
  list_repeat rank (oneofl [ 1; shards m ps ]) >>= fun scatter ->
  let least = List.map2 (fun xa xb -> lcm (shards m xa) (shards m xb)) a b in
  let ns = List.map2 ( * ) least (List.map2 ( * ) extra scatter) in
  (* Arrays of at most 2,048 elements keep the run on values quick. *)
  let ns = if prod ns > 2048 then least else ns in
  let pm = placed_at m 0 in
  return ({ ly_mesh = pm; ly_ty = List.combine a ns }, ps, { ly_mesh = pm; ly_ty = List.combine b ns }, pt)

let gen_uneven =
  let open QCheck.Gen in
  gen_mesh >>= fun ma ->
  gen_mesh >>= fun mb ->
  gen_placed ma >>= fun pa ->
  gen_placed mb >>= fun pb ->
  bool >>= fun same ->
  let pb = if same then pa else pb in
  gen_sides ma pb.pm_mesh >>= fun (ps, pt, fs, ft) ->
  int_range 1 2 >>= fun rank ->
  list_repeat rank (oneofl [ 1; 2; 3; 5; 7; 11; 13; 30 ]) >>= fun ns ->
  gen_axes fs rank >>= fun a ->
  gen_axes ft rank >>= fun b ->
  return ({ ly_mesh = pa; ly_ty = List.combine a ns }, ps, { ly_mesh = pb; ly_ty = List.combine b ns }, pt)

let pp_problem (s, ps, t, pt) =
  let pp_layout l =
    Printf.sprintf "{%s} @ [%s] [%s]"
      (String.concat ", " (List.map (fun (x, n) -> Printf.sprintf "%d:%d" x n) l.ly_mesh.pm_mesh))
      (String.concat ", " (List.map string_of_int l.ly_mesh.pm_ranks))
      (String.concat ", "
         (List.map
            (fun (xs, n) -> Printf.sprintf "{%s}%d" (String.concat "," (List.map string_of_int xs)) n)
            l.ly_ty))
  in
  let pp_axes xs = String.concat "," (List.map string_of_int xs) in
  Printf.sprintf "%s sum{%s} -> %s sum{%s}" (pp_layout s) (pp_axes ps) (pp_layout t) (pp_axes pt)

(* ---- running a plan on integers ------------------------------------------ *)

let ints : cmonoid = { zero = Obj.repr 0; add0 = (fun a b -> Obj.repr (Obj.obj a + Obj.obj b)) }

let global_value i = List.fold_left (fun a x -> (a * 31) + x + 7) 1 i

(* Source ranks hold pending sums of [global_value]: every member of a group
   but the first holds an arbitrary number, the first what completes the sum. *)
let source_state s ps : carrier state =
 fun w l ->
  match index_of w s.ly_mesh.pm_ranks, pl_box s w with
  | Some k, Some b ->
      let i = box_global b l in
      let noise w' = ((w' * 7919) + global_value i) mod 1000 in
      let members = group_members s.ly_mesh.pm_mesh ps (device_of_rank s.ly_mesh.pm_mesh k) in
      let first = world_rank s.ly_mesh (List.hd members) in
      if w <> first then Obj.repr (noise w)
      else
        Obj.repr
          (global_value i
          - List.fold_left (fun a c -> let w' = world_rank s.ly_mesh c in if w' = w then a else a + noise w') 0 members)
  | _ -> Obj.repr 0

let sums_to_target t pt (st : carrier state) =
  let value = pl_pending_value ints t pt st in
  List.for_all
    (fun r ->
      match pl_box t r with
      | Some b ->
          List.for_all (fun l -> Obj.obj (value r l) = global_value (box_global b l)) (box_indices (box_shape b))
      | None -> true)
    t.ly_mesh.pm_ranks

(* ---- what every plan must satisfy --------------------------------------- *)

(* A plan by the reducing exchange, lowered (lower_sumx, elements of 4
   bytes): its pieces, read by the extracted interpreter, give every target
   group its box's sum; the header's workspace is the largest rank's
   staging; no rank's source, target box and staging exceed the stated live
   bytes. *)
let lowered_exchange_ok (s, ps, t, pt) sp =
  match lower_sumplan 4 KeepOne s ps t pt sp with
  | SumCalls _ -> true
  | SumExchangeCall x ->
      (* Each rank's pieces once, not once per element read. *)
      let pieces = Hashtbl.create 16 in
      let x =
        { x with
          sx_pieces =
            (fun r ->
              match Hashtbl.find_opt pieces r with
              | Some ps -> ps
              | None -> let ps = x.sx_pieces r in Hashtbl.add pieces r ps; ps) }
      in
      let live = sumplan_live_bytes 4 KeepOne s ps t pt sp in
      sums_to_target t pt (sumx_dst ints x (source_state s ps))
      && x.sx_workspace_bytes = List.fold_left (fun a r -> max a (x.sx_staging r)) 0 t.ly_mesh.pm_ranks
      && List.for_all (fun w -> sumx_live 4 s ps t pt w <= live) (s.ly_mesh.pm_ranks @ t.ly_mesh.pm_ranks)

(* The plan's busiest rank, or why it fails; [~lowered]: also run its
   lowering (once per problem: auto's exchange is the exchange strategy's). *)
let judge ~lowered (s, ps, t, pt) sp =
  match scheck s ps t pt sp with
  | Error _ -> Stdlib.Error "checker rejects a planned plan"
  | OK rep ->
      let ranks = t.ly_mesh.pm_ranks in
      if rep.sm_peak > max (largest_box s) (largest_box t) then Stdlib.Error "peak above max(|src|, |tgt|)"
      else if pt = [] && List.exists (fun r -> rep.sm_recv r < sum_recv_bound s ps t r) ranks then
        Stdlib.Error "a rank receives less than the lower bound"
      else if not (sums_to_target t pt (sexec ints KeepOne s ps t pt sp (source_state s ps))) then
        Stdlib.Error "wrong sums after the plan"
      else if lowered && not (lowered_exchange_ok (s, ps, t, pt) sp) then
        Stdlib.Error "the lowered reducing exchange: wrong sums, workspace or live bytes"
      else Stdlib.Ok (List.fold_left (fun a r -> max a (rep.sm_recv r)) 0 ranks)

(* What auto chose, and its busiest rank over the bound's busiest rank. *)
let auto_collectives = ref 0
let ratios = ref []

let name = function StratCollectives -> "collectives" | StratExchange -> "exchange" | StratAuto -> "auto"

(* [None] when good.  On even problems every strategy plans and auto is the
   cheaper of the two; otherwise collectives refuse and the others plan. *)
let judge_problem problem =
  let s, ps, t, pt = problem in
  let even = even_problem s t in
  let plan st = plan_sums st s ps t pt in
  let busiest st =
    match plan st with
    | None -> if st = StratCollectives && not even then Stdlib.Ok None else Stdlib.Error (name st ^ ": no plan")
    | Some sp -> (
        match judge ~lowered:(st = StratExchange) problem sp with Stdlib.Ok b -> Stdlib.Ok (Some b) | Stdlib.Error why -> Stdlib.Error (name st ^ ": " ^ why))
  in
  let auto = busiest StratAuto in
  (match plan StratAuto, auto with
   | Some sp, Stdlib.Ok (Some a) ->
       if (match sp with SumByCollectives _ -> true | SumByExchange -> false) then incr auto_collectives;
       let bound = List.fold_left (fun b r -> max b (sum_recv_bound s ps t r)) 0 t.ly_mesh.pm_ranks in
       if pt = [] && bound > 0 then ratios := (float a /. float bound) :: !ratios
   | _ -> ());
  match busiest StratCollectives, busiest StratExchange, auto with
  | Stdlib.Error why, _, _ | _, Stdlib.Error why, _ | _, _, Stdlib.Error why -> Some why
  | Stdlib.Ok (Some c), Stdlib.Ok (Some x), Stdlib.Ok (Some a) when a > min c x -> Some "auto is not the cheaper"
  | Stdlib.Ok (Some _), _, _ when not even -> Some "collectives on an uneven or cross-mesh problem"
  | Stdlib.Ok None, _, _ when even -> Some "collectives: no plan"
  | _ -> None

let random_problems ~n ~seed gen () =
  let rand = Random.State.make [| seed |] in
  let bad = ref [] in
  auto_collectives := 0;
  ratios := [];
  for _ = 1 to n do
    let problem = QCheck.Gen.generate1 ~rand gen in
    match judge_problem problem with
    | None -> ()
    | Some why -> bad := Printf.sprintf "%s: %s" (pp_problem problem) why :: !bad
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  let k = List.length !ratios in
  Printf.printf "auto plans by collectives on %d of %d problems; busiest rank over the bound on %d plain targets with traffic: geomean %.2f, worst %.2f\n%!"
    !auto_collectives n k
    (exp (List.fold_left (fun a x -> a +. log x) 0. !ratios /. float (max k 1)))
    (List.fold_left max 1. !ratios);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problems (seed %d)" n seed) 0 (List.length !bad)

(* ---- fixed examples ------------------------------------------------------ *)

let layout m ty = { ly_mesh = placed_at m 0; ly_ty = ty }

(* [{x}32, 64] sum{y} on {x:2, y:4}: to the y-sharded target a reduce-scatter
   alone, 3/4 of the 256-element result per rank from others (768); to the
   replicated target a reduce-scatter then an all-gather (768 + 768); keeping
   y pending moves nothing. *)
let examples () =
  let m = [ (0, 2); (1, 4) ] in
  let s = layout m [ ([ 0 ], 32); ([], 64) ] in
  let busiest t pt =
    match plan_sums StratAuto s [ 1 ] t pt with
    | Some sp -> (
        match scheck s [ 1 ] t pt sp with
        | OK rep -> List.fold_left (fun a r -> max a (rep.sm_recv r)) 0 (List.init 8 Fun.id)
        | Error _ -> -1)
    | None -> -1
  in
  Alcotest.(check int) "to [{x}32, {y}64]" 768 (busiest (layout m [ ([ 0 ], 32); ([ 1 ], 64) ]) []);
  Alcotest.(check int) "to [{x}32, 64]" 1536 (busiest (layout m [ ([ 0 ], 32); ([], 64) ]) []);
  Alcotest.(check int) "to [{x}32, 64] sum{y}" 0 (busiest s [ 1 ]);
  Alcotest.(check bool) "reduce-scatter onto the target's dimension" true
    (match plan_sums StratCollectives s [ 1 ] (layout m [ ([ 0 ], 32); ([ 1 ], 64) ]) [] with
     | Some (SumByCollectives ([ ReduceScatter (1, 1) ], _, [], [])) -> true
     | _ -> false)

let () =
  Tap.run "sums"
    [ ("examples", [ Alcotest.test_case "one mesh, three targets" `Quick examples ]);
      ( "random",
        [ Alcotest.test_case "5000 even problems, every strategy" `Quick
            (random_problems ~n:5_000 ~seed gen_even);
          Alcotest.test_case "5000 uneven and cross-mesh problems" `Quick
            (random_problems ~n:5_000 ~seed:(seed + 1) gen_uneven) ] ) ]
