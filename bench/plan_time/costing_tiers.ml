(* make bench-plan, second part: what the cost model's costing takes
   against Planning.costing_work's estimate, and how often auto costs
   every candidate, all but the hybrids, or none, without a cost option.
   CPU seconds, the fastest of three runs.
   1. An uneven exchange on 16,384 and 65,536 ranks over 1 to 16 mesh
      axes (--strategy exchange: one candidate): the measured time of
      Cost.choose against the estimate (units of 0.2 us).
   2. 100 random problems per mesh size (Plan_time.random_problem, fixed
      seed): the tier Planning.choose_costed picks and the slowest. *)

module C = Redist_core
module P = Planning

let () = Cli.tune_gc ()

let problem ~strategy (q : Plan_time.problem) =
  Problem.make_placed ~meshes:(Problem.One q.mesh) ~strategy ~from:q.from ~to_:q.to_
    ~dtype:None

let fastest f =
  List.fold_left min infinity
    (List.init 3 (fun _ ->
         let t = Sys.time () in
         ignore (f ());
         Sys.time () -. t))

(* Axes a0 .. a(n-1) of [size] each; the first half of them shard
   dimension 0 (50257, uneven), the others dimension 1, both reversed and
   swapped in the target. *)
let exchange_problem naxes size =
  let names = List.init naxes (Printf.sprintf "a%d") in
  let first = List.filteri (fun i _ -> i < max 1 (naxes / 2)) names in
  let rest = List.filteri (fun i _ -> i >= max 1 (naxes / 2)) names in
  let axes l = String.concat "," l in
  { Plan_time.mesh = "{" ^ String.concat ", " (List.map (fun a -> Printf.sprintf "%s:%d" a size) names) ^ "}";
    from = Printf.sprintf "[{%s}50257, %s]" (axes first) (if rest = [] then "3" else "{" ^ axes rest ^ "}1027");
    to_ =
      (if rest = [] then "[50257, 3]"
       else Printf.sprintf "[{%s}50257, {%s}1027]" (axes (List.rev rest)) (axes (List.rev first))) }

let exchange_costing () =
  Printf.printf "%-8s %-6s %10s %10s %10s\n" "ranks" "axes" "measured s" "estimate s" "ratio";
  List.iter
    (fun (naxes, size) ->
      let q = exchange_problem naxes size in
      let p = problem ~strategy:C.StratExchange q in
      let s = P.default_settings p in
      let src = Problem.source_layout p and tgt = Problem.target_layout p in
      let measured =
        fastest (fun () -> C.choose false s.profile s.hosts p.elem_bytes s.budget p.strategy src tgt)
      in
      let work, _ = P.costing_work p src tgt in
      let estimate = float work.units *. 0.2e-6 in
      Printf.printf "%-8d %-6d %10.4f %10.4f %10.2f\n%!" (int_of_float (float size ** float naxes)) naxes
        measured estimate (measured /. estimate))
    [ (1, 16384); (2, 128); (7, 4); (14, 2); (1, 65536); (2, 256); (4, 16); (8, 4); (16, 2) ]

let tiers () =
  Printf.printf "\n%-8s %8s %16s %10s %10s\n" "devices" "costed" "without hybrids" "not costed" "slowest s";
  List.iter
    (fun log2 ->
      let rng = Random.State.make [| log2 |] in
      let counts = Array.make 3 0 and slowest = ref 0. in
      for _ = 1 to 100 do
        let p = problem ~strategy:C.StratAuto (Plan_time.random_problem rng ~log2_devices:log2) in
        let t = Sys.time () in
        let _, _, costing = P.choose_costed (P.default_settings p) p in
        slowest := max !slowest (Sys.time () -. t);
        let k = match costing with P.Costed _ -> 0 | P.Costed_no_hybrids _ -> 1 | P.Not_costed _ -> 2 in
        counts.(k) <- counts.(k) + 1
      done;
      Printf.printf "%-8d %8d %16d %10d %10.2f\n%!" (1 lsl log2) counts.(0) counts.(1) counts.(2) !slowest)
    [ 9; 12; 14; 16 ]

let () =
  exchange_costing ();
  tiers ()
