(* Properties of the cost model's choice that hold alike for plans without
   and with pending sums: each suite passes its own problems and readings. *)

(* Planning the problems again, in reverse order, chooses the same plans. *)
let same_choice_twice chosen problems =
  let first = List.map chosen problems in
  let again = List.rev (List.map chosen (List.rev problems)) in
  List.iteri (fun i (a, b) -> if a <> b then Alcotest.failf "problem %d: another plan the second time" i)
    (List.combine first again)

(* With free messages every candidate predicts 0 ns, and the choice is one
   of least traffic: [candidates] and [best] as (what, predicted ns,
   traffic). *)
let least_traffic_when_free ~fail candidates (_, best_ns, best_traffic) =
  List.iter (fun (what, ns, _) -> if ns <> 0 then fail (Printf.sprintf "%s predicts %d ns with free messages" what ns)) candidates;
  if best_ns <> 0 then fail (Printf.sprintf "the choice predicts %d ns with free messages" best_ns);
  let least = List.fold_left (fun acc (_, _, t) -> min acc t) max_int candidates in
  if best_traffic <> least then fail (Printf.sprintf "chose traffic %d, the least is %d" best_traffic least)
