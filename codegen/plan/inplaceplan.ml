(* What `plan --in-place` and `check --in-place` print: the direct exchange
   run on one buffer per rank of max(|src box|, |tgt box|) elements and a
   staging within --memory-budget.  The schedule is the extracted
   [inplace_plan]'s (generated on runs of any lengths, then accepted by
   [validate_runs], which implies [validate]: inplace_plan_validated) at the
   staging the budget allows ([inplace_staging]), priced by [inplace_ns];
   this module counts the schedule's rounds and moves, and takes maxima and
   sums over the world's ranks. *)

module C = Redist_core
module F = Front

type t = {
  exchange : Xreport.t;     (* the exchange's boxes and its traffic bound *)
  budget : int option;      (* --memory-budget, bytes per rank *)
  buffer_elems : int;       (* the largest buffer of a world rank: max(|src box|, |tgt box|) *)
  staging_elems : int;      (* every rank's staging *)
  block_elems : int;        (* every run of the schedule is a multiple of this *)
  schedule : C.schedule;    (* the extracted inplace_plan's, which gen prints as tables *)
  rounds : int;
  messages : int;           (* moves from one rank to another *)
  local_copies : int;       (* moves within a rank (saves to the staging, copies within the buffer) *)
  recv_busiest : int;       (* what the schedule's moves bring to a rank from other ranks *)
  recv_total : int;
  predicted_ns : int;       (* [Costinplace.inplace_ns] under the profile and hosts *)
  profile_name : string;
  hosts_text : string;
}

let refuse fmt = Printf.ksprintf (fun s -> F.bad "--in-place: %s" s) fmt

(* What is not in place yet: one line each, before any planning. *)
let refuse_unsupported (p : Problem.t) =
  if Problem.has_pending p then refuse "pending sums (sum{...}) are not supported in place yet; drop --in-place";
  if p.strategy = C.StratCollectives then
    refuse "--strategy collectives is not supported in place yet: the direct exchange runs in place (--strategy exchange or auto)"

(* The staging per rank ([Costinplace.inplace_staging]): the budget less
   the largest buffer, at most that buffer; without a budget, that most. *)
let staging_of (settings : Profile.t) (p : Problem.t) buffer_elems =
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  match C.inplace_staging p.elem_bytes src tgt settings.budget with
  | Some staging -> staging
  | None ->
      F.bad "--memory-budget: %d bytes per rank is below %d, the least an in-place plan takes: the largest buffer, max(|src box|, |tgt box|) = %s B, and one element of staging"
        (Option.get settings.budget) (C.inplace_least_budget p.elem_bytes src tgt) (Bounds.mul_decimal buffer_elems p.elem_bytes)

(* The report of [schedule], the extracted [inplace_plan] at [staging_elems]. *)
let of_schedule (settings : Profile.t) (p : Problem.t) staging_elems schedule =
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  let exchange =
    match Xreport.of_exchange p with
    | C.OK r -> r
    | C.Error _ -> failwith "xcheck rejected the exchange (contradicts xcheck_correct's premise, exchange_wf)"
  in
  (* The runs have no common block by design; this is the largest that divides every run's offsets and length. *)
  let block_elems =
    List.fold_left
      (List.fold_left (fun g (mv : C.move) -> List.fold_left C.Nat.gcd g [ mv.mv_len; mv.mv_from.pl_off; mv.mv_to.pl_off ]))
      0 schedule
    |> max 1
  in
  let count f = List.fold_left (fun acc rd -> acc + List.length (List.filter f rd)) 0 schedule in
  let recv = List.init (Problem.world p) (C.received0 schedule) in
  { exchange; budget = settings.budget; buffer_elems = C.largest_buffer src tgt; staging_elems; schedule;
    block_elems; rounds = List.length schedule;
    messages = count C.crosses; local_copies = count (fun mv -> not (C.crosses mv));
    recv_busiest = List.fold_left max 0 recv; recv_total = List.fold_left Bounds.add 0 recv;
    predicted_ns = C.inplace_ns settings.profile settings.hosts p.elem_bytes schedule;
    profile_name = settings.name; hosts_text = settings.hosts_text }

let plan (settings : Profile.t) (p : Problem.t) =
  refuse_unsupported p;
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  let buffer_elems = C.largest_buffer src tgt in
  let staging_elems = staging_of settings p buffer_elems in
  let schedule =
    match C.inplace_plan src tgt staging_elems with
    | Some sc -> sc
    | None ->
        refuse "no schedule within the planner's limit (%d pieces left, summed over the rounds) with a staging of %s (a larger --memory-budget takes fewer rounds)"
          C.inplace_work_limit (Report.plural staging_elems "element")
    | exception Stack_overflow ->
        refuse "the planner ran out of stack: %d elements per buffer with a staging of %s" buffer_elems
          (Report.plural staging_elems "element")
  in
  of_schedule settings p staging_elems schedule

(* [check --in-place]: the plan file must be the one line `exchange`. *)
let check (settings : Profile.t) (p : Problem.t) text =
  refuse_unsupported p;
  match Planfile.check_any p text with
  | Xreport.Exchange _ -> plan settings p
  | Xreport.Collectives _ | Xreport.Hybrid _ -> refuse "only the plan `exchange` runs in place; this plan file is not the one line exchange"

let live_bytes (r : t) = (r.buffer_elems + r.staging_elems) * r.exchange.problem.elem_bytes

let text ?(guarantees = Guarantees.in_place) ~title (r : t) =
  let x = r.exchange in
  let p = x.problem in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  let bytes elems = Bounds.mul_decimal elems p.elem_bytes in
  let plural = Report.plural in
  line "# %s: %s, %s -> %s, %s (%d bytes per element), strategy exchange, in place" title (Problem.show_meshes p)
    (F.show_ty p.env p.src) (F.show_ty p.tgt_env p.tgt) p.dtype.name p.elem_bytes;
  line "exchange  # in place -> %s  %s  busiest rank recv %d (%s B)" (F.show_ty p.tgt_env p.tgt)
    (plural r.rounds "round") r.recv_busiest (bytes r.recv_busiest);
  line "# buffer per rank: max(|src box|, |tgt box|), at most %s (%s B); largest source box %d, largest target box %d"
    (plural r.buffer_elems "element") (bytes r.buffer_elems) x.src_max x.tgt_max;
  line "# staging per rank: %s (%s B); live bytes per rank at most %d (buffer + staging)%s"
    (plural r.staging_elems "element") (bytes r.staging_elems) (live_bytes r)
    (match r.budget with
     | Some budget -> Printf.sprintf ", within --memory-budget %d" budget
     | None -> "; no --memory-budget: the most staging a rank uses, for the fewest rounds");
  line "# least --memory-budget in place: %s B (the largest buffer and one element of staging)"
    (bytes (r.buffer_elems + 1));
  line "# rounds: %d (runs in blocks of %s); messages: %d (point-to-point); local copies: %d" r.rounds
    (plural r.block_elems "element") r.messages r.local_copies;
  line "# predicted time: %s (profile %s, %s; per round one message per peer by MPI and the local copies, the busiest receiving rank's)"
    (Costreport.show_ns r.predicted_ns) r.profile_name r.hosts_text;
  line "# busiest rank receives: %s (%s B); lower bound %d (target elements not already held, max over ranks)"
    (plural r.recv_busiest "element") (bytes r.recv_busiest) x.lb_max;
  line "# total received: %s (%s B); lower bound %d (summed over %d world ranks)" (plural r.recv_total "element")
    (bytes r.recv_total) x.lb_total x.world;
  line "# proven in Coq:";
  List.iter (fun (name, what) -> line "#   %s: %s" name what) guarantees;
  Buffer.contents b

(* The JSON field "in_place" of plan, check and run. *)
let in_place_field (r : t) =
  let e = r.exchange.problem.elem_bytes in
  ( "in_place",
    `Assoc
      [ ("buffer_elems", `Int r.buffer_elems); ("buffer_bytes", `Int (r.buffer_elems * e));
        ("staging_elems", `Int r.staging_elems); ("staging_bytes", `Int (r.staging_elems * e));
        ("live_bytes", `Int (live_bytes r));
        ("memory_budget", match r.budget with Some b -> `Int b | None -> `Null);
        ("least_memory_budget", `Int ((r.buffer_elems + 1) * e));
        ("block_elems", `Int r.block_elems); ("rounds", `Int r.rounds); ("messages", `Int r.messages);
        ("local_copies", `Int r.local_copies); ("predicted_ns", `Int r.predicted_ns) ] )

let json ?(guarantees = Guarantees.in_place) ~command (r : t) =
  match Json.exchange_report ~command ~guarantees r.exchange with
  | `Assoc fields ->
      let replace key v = List.map (fun (k, old) -> (k, if k = key then v else old)) in
      `Assoc
        (replace "recv_elems_total" (`Int r.recv_total) (replace "recv_elems_max" (`Int r.recv_busiest) fields)
        @ [ in_place_field r ])
  | doc -> doc
