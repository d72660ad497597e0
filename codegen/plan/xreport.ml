(* What `plan` and `check` print about a direct-exchange plan: every number
   comes from the extracted [xcheck] (peak, what each world rank receives),
   [exchange_recv] (the proven per-rank bound, [recv_lower_bound] by
   [exchange_recv_spec]) and [largest_boxes]; this
   module only takes maxima and sums over the world's ranks. *)

module C = Redist_core
module F = Front

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

(* A plan of any strategy, with the report of its checker: a hybrid is its
   two parts, each reported on its own problem (the source to the
   intermediate layout, the intermediate to the target), and the whole's
   figures from [xcheck] of the whole. *)
type plan = Collectives of Report.t | Exchange of t | Hybrid of hybrid

and hybrid = {
  whole : Problem.t;
  mid : C.layout;               (* the intermediate layout *)
  first : plan;                 (* the source to [mid] *)
  second : plan;                (* [mid] to the target *)
  figures : figures Lazy.t;     (* of the whole: only a printed hybrid's are computed, not its nested parts' *)
}

and figures = {
  h_world : int;
  h_peak : int;                 (* the larger of the parts' peaks *)
  h_recv_busiest : int;         (* per rank, summed over the parts *)
  h_recv_total : int;
  h_lb_max : int;               (* the whole problem's lower bound *)
  h_lb_total : int;
  h_live_bytes : int;           (* splan_live_bytes of the whole *)
  h_workspace_bytes : int;      (* program_workspace_bytes of the lowered whole *)
}

let figures (h : hybrid) = Lazy.force h.figures

(* The core's plan that a report is of. *)
let rec splan = function
  | Collectives (r : Report.t) -> C.ByCollectives (r.refinement, List.map (fun (s : Report.step) -> s.coll) r.steps)
  | Exchange _ -> C.ByExchange
  | Hybrid h -> C.ByThen (h.mid, splan h.first, splan h.second)

let problem = function Collectives (r : Report.t) -> r.problem | Exchange r -> r.problem | Hybrid h -> h.whole

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
    (Front.show_ty p.env p.src) (Front.show_ty p.tgt_env p.tgt) p.dtype.name p.elem_bytes
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

(* A hybrid whose parts [report] gave, with the whole's figures from [xcheck]. *)
(* The figures of a hybrid [sp] of [p] from its xcheck report [rep]. *)
let hybrid_figures (p : Problem.t) sp (rep : C.xreport) =
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  let world = Problem.world p in
  let over f = List.init world f in
  let recv = over rep.xr_recv and lb = over (C.exchange_recv src tgt) in
  let sum = List.fold_left Bounds.add 0 and max_of = List.fold_left max 0 in
  { h_world = world; h_peak = rep.xr_peak; h_recv_busiest = max_of recv; h_recv_total = sum recv;
    h_lb_max = max_of lb; h_lb_total = sum lb; h_live_bytes = C.splan_live_bytes p.elem_bytes src tgt sp;
    h_workspace_bytes = C.program_workspace_bytes (C.lower_splan p.elem_bytes src tgt sp) }

let of_hybrid (p : Problem.t) mid first second =
  let sp = C.ByThen (mid, splan first, splan second) in
  match C.xcheck (Problem.source_layout p) (Problem.target_layout p) sp with
  | C.Error e -> C.Error e
  | C.OK rep -> C.OK { whole = p; mid; first; second; figures = lazy (hybrid_figures p sp rep) }

(* A hybrid nested in one that [of_hybrid] accepted, whose xcheck checked
   this one as its part: checking it again at every level of a chain of
   via lines would make the chain quadratic. *)
let nested_hybrid (p : Problem.t) mid first second =
  let sp = C.ByThen (mid, splan first, splan second) in
  let figures =
    lazy
      (match C.xcheck (Problem.source_layout p) (Problem.target_layout p) sp with
       | C.OK rep -> hybrid_figures p sp rep
       | C.Error _ -> failwith "xcheck rejected a part of a hybrid it accepted")
  in
  { whole = p; mid; first; second; figures }

(* A plan's lines of a plan file, each with its figures as a comment: its
   refine lines and collectives with the type after each, the exchange, or
   a hybrid's first part, [via] its intermediate type, and its second part. *)
let rec step_lines = function
  | Collectives (r : Report.t) ->
      F.refine_lines ~base:r.problem.env r.env
      @ (if r.steps = [] then [ "# (no steps: a copy)" ] else [])
      @ List.map
          (fun (s : Report.step) ->
            Printf.sprintf "%s  # -> %s  local %d  busiest rank recv %d" (F.show_collective r.env s.coll)
              (F.show_ty r.env s.after) s.local_elems s.recv_max)
          r.steps
  | Exchange r ->
      [ Printf.sprintf "exchange  # -> %s  largest box %d  busiest rank recv %d" (F.show_ty r.problem.tgt_env r.problem.tgt)
          r.tgt_max r.recv_busiest ]
  | Hybrid h ->
      let first = problem h.first in
      step_lines h.first @ [ "via " ^ F.show_ty first.tgt_env first.tgt ] @ step_lines h.second

let rec launches = function
  | Collectives (r : Report.t) -> r.launches
  | Exchange _ -> 1
  | Hybrid h -> launches h.first + launches h.second

(* A hybrid as a plan file (`redist check --plan -` reads it back): its
   parts' lines around the via line, and the whole's numbers as comments. *)
let hybrid_text ~title ~guarantees (h : hybrid) =
  let p = h.whole and f = figures h in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  let bytes elems = Bounds.mul_decimal elems p.elem_bytes in
  let src_max, tgt_max = C.largest_boxes (Problem.source_layout p) (Problem.target_layout p) in
  line "# %s: %s, %s -> %s, %s (%d bytes per element), strategy %s" title (Problem.show_meshes p)
    (F.show_ty p.env p.src) (F.show_ty p.tgt_env p.tgt) p.dtype.name p.elem_bytes (Problem.strategy_name p.strategy);
  line "# hybrid: the first part to the intermediate type of the via line, then the second from it";
  List.iter (line "%s") (step_lines (Hybrid h));
  line "# peak local size: %s (%s B); largest source box %d, largest target box %d" (plural f.h_peak "element")
    (bytes f.h_peak) src_max tgt_max;
  line "# busiest rank receives: %s (%s B) over both parts; lower bound %d (target elements not already held, max over ranks)"
    (plural f.h_recv_busiest "element") (bytes f.h_recv_busiest) f.h_lb_max;
  line "# total received: %s (%s B); lower bound %d (summed over %d world ranks)" (plural f.h_recv_total "element")
    (bytes f.h_recv_total) f.h_lb_total f.h_world;
  line "# launches: %d; live bytes per rank: %d; workspace: %d bytes (the largest intermediate box, then the larger part's workspace)"
    (launches (Hybrid h)) f.h_live_bytes f.h_workspace_bytes;
  line "# proven in Coq:";
  List.iter (fun (name, what) -> line "#   %s: %s" name what) guarantees;
  Buffer.contents b

(* What `plan` and `check` print about a plan of any kind. *)
let plan_text ~title ~guarantees = function
  | Collectives r -> Report.text ~title ~guarantees r
  | Exchange r -> text ~title ~guarantees r
  | Hybrid h -> hybrid_text ~title ~guarantees h
