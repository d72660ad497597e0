(* What `plan` and `check` print about a direct-exchange plan: every number
   comes from the extracted [xcheck] (peak, what each world rank receives),
   [exchange_recv] (the proven per-rank bound, [recv_lower_bound] by
   [exchange_recv_spec]) and [largest_boxes]; this
   module only takes maxima and sums over the world's ranks. *)

module C = Redist_core

type t = {
  problem : Problem.t;
  world : int;                (* world ranks 0 .. world - 1 take part *)
  peak : int;
  src_max : int;              (* the largest source box *)
  tgt_max : int;              (* the largest target box *)
  global_elems : int;
  recv_busiest : int;
  recv_total : int;
  lb_max : int;
  lb_total : int;
  live_bytes : int;           (* bytes alive on a rank: at most its largest boxes (lower_splan_live_bytes) *)
}

(* A plan of either strategy, with the report of its checker. *)
type plan = Collectives of Report.t | Exchange of t

(* The core's plan that a report is of. *)
let splan = function
  | Collectives (r : Report.t) -> C.ByCollectives (r.refinement, List.map (fun (s : Report.step) -> s.coll) r.steps)
  | Exchange _ -> C.ByExchange

let problem = function Collectives (r : Report.t) -> r.problem | Exchange r -> r.problem

let of_exchange (p : Problem.t) =
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  match C.xcheck src tgt C.ByExchange with
  | C.Error e -> C.Error e
  | C.OK rep ->
      let world = Problem.world p in
      let over f = List.init world f in
      let recv = over rep.xr_recv and lb = over (C.exchange_recv src tgt) in
      let sum = List.fold_left Bounds.add 0 and max_of = List.fold_left max 0 in
      let src_max, tgt_max = C.largest_boxes src tgt in
      C.OK
        { problem = p; world; peak = rep.xr_peak; src_max; tgt_max;
          global_elems = List.fold_left ( * ) 1 (C.global_shape p.src);
          recv_busiest = max_of recv; recv_total = sum recv; lb_max = max_of lb; lb_total = sum lb;
          live_bytes = C.splan_live_bytes p.elem_bytes src tgt C.ByExchange }

let plural = Report.plural
let bytes (r : t) elems = Bounds.mul_decimal elems r.problem.elem_bytes

(* The plan as a plan file: the one line `exchange`, and the numbers as
   comments, so that `redist check --plan -` reads it back. *)
let text ~title ~guarantees (r : t) =
  let p = r.problem in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  line "# %s: %s, %s -> %s, %s (%d bytes per element), strategy %s" title (Problem.show_meshes p)
    (Front.show_ty p.env p.src) (Front.show_ty p.tgt_env p.tgt) p.dtype p.elem_bytes
    (Problem.strategy_name p.strategy);
  line "exchange  # -> %s  largest box %d  busiest rank recv %d (%s B)" (Front.show_ty p.tgt_env p.tgt) r.tgt_max
    r.recv_busiest (bytes r r.recv_busiest);
  line "# peak local size: %s (%s B); largest source box %d, largest target box %d; gather-everything plan: %d"
    (plural r.peak "element") (bytes r r.peak) r.src_max r.tgt_max r.global_elems;
  line "# busiest rank receives: %s (%s B); lower bound %d (target elements not already held, max over ranks)"
    (plural r.recv_busiest "element") (bytes r r.recv_busiest) r.lb_max;
  line "# total received: %s (%s B); lower bound %d (summed over %d world ranks)" (plural r.recv_total "element")
    (bytes r r.recv_total) r.lb_total r.world;
  line "# launches: 1 exchange (point-to-point, each rank only with the ranks whose boxes meet its own)";
  line "# proven in Coq:";
  List.iter (fun (name, what) -> line "#   %s: %s" name what) guarantees;
  Buffer.contents b
