(* Problems to time the planner and the checker on, and the CPU time that
   `redist plan` and `redist check` spend on one, without printing. *)

type problem = { mesh : string; from : string; to_ : string }

(* Issue 12: the planner took 88 s and the checker 15 s on the first, the
   report 5.3 s on the second (16 axes of size 2 reversed). *)
let known_slow =
  [ { mesh =
        "{m0:1, m1:4, m2:4, m3:16, m4:2, m5:1, m6:8, m7:2, m8:1, m9:2, m10:1, m11:1, m12:2, \
         m13:1, m14:1, m15:2}";
      from = "[{m2,m9,m1,m3,m7,m6,m12,m11,m0,m4}196608, {m10,m8,m15,m5}196608]";
      to_ = "[{m0,m14,m7}196608, {m4,m6,m5,m8,m12,m10,m1,m2,m15}196608]" };
    (let axes = List.init 16 (Printf.sprintf "a%d") in
     { mesh = "{" ^ String.concat ", " (List.map (fun a -> a ^ ":2") axes) ^ "}";
       from = "[{" ^ String.concat "," axes ^ "}65536]";
       to_ = "[{" ^ String.concat "," (List.rev axes) ^ "}65536]" });
    (* an even gather: costing its exchange candidate lists 65,536^2 messages *)
    { mesh = "{x:256, y:256}"; from = "[{x,y}65536, 4]"; to_ = "[65536, 4]" } ]

let shuffle rng l =
  List.map snd (List.sort compare (List.map (fun x -> (Random.State.bits rng, x)) l))

(* A mesh of 2^log2_devices devices (the factors of 2 dealt at random to a
   few axes, some left of size 1) and two random types of rank 1 to 4 over
   it: each axis shards a random dimension, or none, in a random order.
   Each global extent is a multiple of both types' shard counts, so both
   are well-formed; the extents' product stays below 2^40. *)
let random_problem rng ~log2_devices =
  let naxes = 1 + Random.State.int rng (max 1 (min 16 log2_devices)) + Random.State.int rng 3 in
  let sizes = Array.make naxes 1 in
  for _ = 1 to log2_devices do
    let i = Random.State.int rng naxes in
    sizes.(i) <- 2 * sizes.(i)
  done;
  let rank = 1 + Random.State.int rng 4 in
  let layout () =
    let dims = Array.make rank [] in
    List.iter
      (fun i ->
        let d = Random.State.int rng (rank + 1) in
        if d < rank then dims.(d) <- i :: dims.(d))
      (shuffle rng (List.init naxes Fun.id));
    dims
  in
  let src = layout () and tgt = layout () in
  let shards dims d = List.fold_left (fun acc i -> acc * sizes.(i)) 1 dims.(d) in
  let extents =
    Array.init rank (fun d -> max (shards src d) (shards tgt d) * (1 + Random.State.int rng 3))
  in
  let name i = Printf.sprintf "x%d" i in
  let ty dims =
    let dim d =
      match dims.(d) with
      | [] -> string_of_int extents.(d)
      | axes -> Printf.sprintf "{%s}%d" (String.concat "," (List.map name axes)) extents.(d)
    in
    "[" ^ String.concat ", " (List.init rank dim) ^ "]"
  in
  { mesh = "{" ^ String.concat ", " (List.init naxes (fun i -> Printf.sprintf "%s:%d" (name i) sizes.(i))) ^ "}";
    from = ty src;
    to_ = ty tgt }

let show q = Printf.sprintf "--mesh '%s' --from '%s' --to '%s'" q.mesh q.from q.to_

(* Timed as the command runs: with its collector settings. *)
let () = Cli.tune_gc ()

let cpu f =
  let t = Sys.time () in
  let r = f () in
  (Sys.time () -. t, r)

(* Uneven and cross-mesh problems on 65,536 devices, planned by the
   exchange (issue 13).  Before Strategy.v's rank tables the report looked
   every world rank up in its mesh by a scan: about 2 minutes for the
   first. *)
type placed = { from_mesh : string; to_mesh : string; src : string; tgt : string }

let placed_65536 =
  [ { from_mesh = "{x:65536}"; to_mesh = "{x:65536}"; src = "[{x}50257]"; tgt = "[50257]" };
    { from_mesh = "{x:65536}"; to_mesh = "{x:256, y:256}"; src = "[{x}50257, 3]"; tgt = "[{y}50257, {x}3]" };
    { from_mesh = "{x:32768}"; to_mesh = "{x:128, y:256} @ 32768"; src = "[{x}50257, 1024]"; tgt = "[{x,y}50257, 1024]" };
    { from_mesh = "{x:65536}"; to_mesh = "{x:4096} @ 1000"; src = "[{x}65535]"; tgt = "[{x}65535]" } ]

let show_placed q = Printf.sprintf "--from-mesh '%s' --to-mesh '%s' --from '%s' --to '%s'" q.from_mesh q.to_mesh q.src q.tgt

(* [{x:4} @ [3, 1, 2, 0]]: a mesh placed by an explicit rank list. *)
let listed mesh ranks = mesh ^ " @ [" ^ String.concat ", " (List.map string_of_int ranks) ^ "]"

let devices = 65536
let reversed = List.init devices (fun k -> devices - 1 - k)
let permuted seed = shuffle (Random.State.make [| seed |]) (List.init devices Fun.id)

(* Explicit rank lists on 65,536 devices (issue 13).  Not yet in the
   test: they still take tens of seconds (bench/README.md), the cost model's
   exchange_batches and the sums' box_size_at looking each rank up in the
   list (Layout.pl_box). *)
let listed_65536 =
  [ { from_mesh = listed "{x:65536}" reversed; to_mesh = "{x:65536}"; src = "[{x}50257]"; tgt = "[{x}50257]" };
    { from_mesh = "{x:65536}"; to_mesh = listed "{x:256, y:256}" (permuted 1); src = "[{x}50257, 3]"; tgt = "[{y}50257, {x}3]" };
    { from_mesh = listed "{x:65536}" (permuted 2); to_mesh = listed "{x:65536}" (permuted 3); src = "[{x}65535]"; tgt = "[{x}65535]" } ]

(* A pending sum over a listed mesh, planned by the sums planner. *)
let pending_listed_65536 =
  { mesh = listed "{x:256, y:256}" (permuted 4); from = "[{x}50257, 256] sum{y}"; to_ = "[{x}50257, {y}256]" }

(* 4,096 devices on 13 axes whose hybrids (with their exchanges) take the
   costing work above Planning.costing_work_limit: by default costed
   without the hybrids (0.44 s; 0.54 s with them, given a cost option). *)
let many_hybrids =
  { mesh = "{x0:1, x1:2, x2:2, x3:1, x4:1, x5:2, x6:1, x7:1, x8:8, x9:2, x10:4, x11:2, x12:4}";
    from = "[{x1,x10,x8,x7,x6}192, 12, {x4,x5}32]"; to_ = "[{x8,x11,x7}192, {x12,x6}12, {x3,x5,x0,x9,x10,x2}32]" }

(* Pending sums above the costing limit (Sumplan.candidate_units):
   4,096 and 65,536 devices, even and uneven. *)
let pending_large =
  [ { mesh = "{x:16, y:16, z:16}"; from = "[{x}48, {y}48] sum{z}"; to_ = "[{y}48, {z}48]" };
    { mesh = "{x:256, y:256}"; from = "[{x}4096, 256] sum{y}"; to_ = "[{x}4096, {y}256]" };
    { mesh = "{x:256, y:256}"; from = "[{x}50257, 256] sum{y}"; to_ = "[{x}50257, {y}256]" } ]

let show_short text = if String.length text > 60 then String.sub text 0 60 ^ "...]" else text
let show_listed q =
  Printf.sprintf "--from-mesh '%s' --to-mesh '%s' --from '%s' --to '%s'" (show_short q.from_mesh) (show_short q.to_mesh) q.src q.tgt

(* CPU seconds for `redist plan` (planner, checker and report) and for
   `redist check` on the plan file it prints, for [problem ()] read as the
   command reads it. *)
let time_plan_and_check problem =
  let plan_s, (p, (r, guarantees)) =
    cpu (fun () ->
        let p = problem () in
        (p, Planning.choose p))
  in
  let title = "redist plan" in
  let text = Xreport.plan_text ~title ~guarantees r in
  let check_s, _ = cpu (fun () -> Planfile.check_any p text) in
  (plan_s, check_s)

(* One mesh, by the default strategy (auto: the cost model, or its
   documented fallback, Planning.costing_work_limit). *)
let plan_and_check q =
  time_plan_and_check (fun () ->
      Problem.make_placed ~meshes:(Problem.One q.mesh) ~strategy:Redist_core.StratAuto
        ~from:q.from ~to_:q.to_ ~dtype:None)

(* Two placed meshes, by the default strategy (auto). *)
let plan_and_check_placed q =
  time_plan_and_check (fun () ->
      Problem.make_placed ~meshes:(Problem.Two (q.from_mesh, q.to_mesh))
        ~strategy:Redist_core.StratAuto ~from:q.src ~to_:q.tgt ~dtype:None)

(* CPU seconds for `redist plan` and `redist check` of a pending-sum problem
   on one mesh, through the sums planner, under the cost settings that
   [settings] gives for the problem (by default the command line's
   defaults); and the plan. *)
let plan_and_check_sums ?(settings = Planning.default_settings) q =
  let plan_s, (p, cost, (r, costing)) =
    cpu (fun () ->
        let p =
          Problem.make_placed ~meshes:(Problem.One q.mesh) ~strategy:Redist_core.StratAuto
            ~from:q.from ~to_:q.to_ ~dtype:None
        in
        let cost = settings p in
        (p, cost, Sumplan.choose_costed cost p))
  in
  let text = Sumplan.text ~cost:costing ~title:"redist plan" r in
  let check_s, checked =
    cpu (fun () ->
        let checked = Sumplan.check p text in
        ignore (Sumplan.cost_checked cost checked);
        checked)
  in
  (plan_s, check_s, r, costing, checked)
