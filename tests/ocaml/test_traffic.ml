(* What the command prints about traffic, on 10,000 random problems
   (tests/problems/placed_problem.ml: uneven, cross-mesh and even ones)
   read through its front end: for the exchange plan, every world rank's
   traffic counted element by element from the extracted data movement
   ([exchange_received] with [spread_holder]) equals the lower bound
   ([recv_lower_bound]), and the report's busiest-rank and total traffic
   equal the printed bounds; for the collectives plan of an even problem,
   no rank receives fewer than the bound. *)
module C = Redist_core

let seed = 20261123
let count = 10_000

let check_problem i (d : Placed_problem.drawn) =
  let fail fmt = Printf.ksprintf (fun s -> Alcotest.failf "problem %d (%s): %s" i (Placed_problem.describe d) s) fmt in
  let p = Placed_problem.problem d C.StratExchange in
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  let holder = C.spread_holder src tgt in
  for r = 0 to Problem.world p - 1 do
    let moved = C.exchange_received src tgt holder r and bound = C.recv_lower_bound src tgt r in
    if moved <> bound then fail "rank %d receives %d elements, the bound is %d" r moved bound
  done;
  (match Planning.choose p with
   | Xreport.Exchange x, _ ->
       if x.recv_busiest <> x.lb_max || x.recv_total <> x.lb_total then
         fail "printed traffic %d (total %d) differs from the bound %d (total %d)" x.recv_busiest x.recv_total x.lb_max
           x.lb_total
   | (Xreport.Collectives _ | Xreport.Hybrid _), _ -> fail "--strategy exchange planned another strategy");
  if d.both then begin
    let pc = Placed_problem.problem d C.StratCollectives in
    match Planning.choose pc with
    | Xreport.Collectives r, _ -> (
        if r.recv_busiest < r.lb_max then fail "collectives: busiest rank %d below the bound %d" r.recv_busiest r.lb_max;
        match C.plan_with C.StratCollectives src tgt with
        | Some sp -> (
            match C.xcheck src tgt sp with
            | C.OK rep ->
                for w = 0 to Problem.world p - 1 do
                  if rep.xr_recv w < C.recv_lower_bound src tgt w then
                    fail "collectives: rank %d receives %d, below the bound %d" w (rep.xr_recv w)
                      (C.recv_lower_bound src tgt w)
                done
            | C.Error _ -> fail "xcheck rejects the collectives plan")
        | None -> fail "no collectives plan for an even problem")
    | (Xreport.Exchange _ | Xreport.Hybrid _), _ -> fail "--strategy collectives planned another strategy"
  end

let traffic () =
  let st = Random.State.make [| seed |] in
  for i = 0 to count - 1 do check_problem i (Placed_problem.draw st i) done

let () =
  Tap.run "traffic"
    [ ("printed traffic", [ Alcotest.test_case (Printf.sprintf "%d random problems, exchange = bound, collectives >= bound" count) `Quick traffic ]) ]
