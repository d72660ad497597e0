(* make bench-plan: CPU time of `redist plan` and `redist check` against
   mesh size, min / median / max over random problems (fixed seed), each
   timed REPEATS times (the fastest kept), then the issue-12 cases. *)

let problems_per_size = 20
let repeats = 3

let stats xs =
  let a = Array.of_list xs in
  Array.sort compare a;
  let n = Array.length a in
  (a.(0), a.(n / 2), a.(n - 1))

let fastest q =
  let runs = List.init repeats (fun _ -> Plan_time.plan_and_check q) in
  (List.fold_left min infinity (List.map fst runs), List.fold_left min infinity (List.map snd runs))

let () =
  let rng = Random.State.make [| 12 |] in
  Printf.printf "%-10s %-8s %28s %28s\n" "devices" "problems" "plan s (min/median/max)"
    "check s (min/median/max)";
  List.iter
    (fun log2 ->
      let times =
        List.init problems_per_size (fun _ ->
            fastest (Plan_time.random_problem rng ~log2_devices:log2))
      in
      let pmin, pmed, pmax = stats (List.map fst times) and cmin, cmed, cmax = stats (List.map snd times) in
      Printf.printf "%-10d %-8d %8.4f %8.4f %8.4f   %8.4f %8.4f %8.4f\n%!" (1 lsl log2)
        problems_per_size pmin pmed pmax cmin cmed cmax)
    [ 3; 6; 9; 12; 16 ];
  List.iter
    (fun q ->
      let plan_s, check_s = fastest q in
      Printf.printf "issue 12: plan %.4f s, check %.4f s: %s\n%!" plan_s check_s (Plan_time.show q))
    Plan_time.known_slow
  ;
  (* Explicit rank lists: timed once each (still tens of seconds, see bench/README.md). *)
  List.iter
    (fun q ->
      let plan_s, check_s = Plan_time.plan_and_check_placed q in
      Printf.printf "rank list: plan %.4f s, check %.4f s: %s\n%!" plan_s check_s (Plan_time.show_listed q))
    Plan_time.listed_65536;
  let plan_s, check_s, _, _, _ = Plan_time.plan_and_check_sums Plan_time.pending_listed_65536 in
  Printf.printf "rank list, pending sum: plan %.4f s, check %.4f s\n%!" plan_s check_s
