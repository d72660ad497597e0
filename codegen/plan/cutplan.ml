(* What `plan` and `check` print about a problem with composed cuts
   (Part 3): one region exchange, whose messages are the extracted
   [region_sends], [region_recvs] and [region_copies] (Lowercuts.v), or,
   with pending axes, one reducing region exchange, whose messages are
   [reduce_sends] and [reduce_recvs] (Lowercutsred.v: an entry whose peer
   is the rank itself is its local contribution); this module only counts
   them and takes maxima and sums over the world's ranks. *)

module C = Redist_core
module F = Front

type t = {
  problem : Problem.composed;
  world : int;                (* world ranks 0 .. world - 1 take part *)
  messages : int;             (* rank-to-rank messages, over the world *)
  boxes : int;                (* the boxes those messages carry *)
  copies : int;               (* boxes a rank copies from its source to its target array *)
  src_max : int;              (* the largest source local array *)
  tgt_max : int;              (* the largest target local array *)
  global_elems : int;
  recv_busiest : int;         (* region_recv_count: the lower bound on every rank; region_reduce_received with pending axes *)
  recv_total : int;
  avg_divisor : int option;   (* avg: cuts_avg_divisor, what every received position is divided by once *)
  live_bytes : int;           (* region_live_elems in bytes, max over ranks: a rank's source + target local arrays *)
  budget : int option;        (* --memory-budget, bytes per rank *)
}

(* World rank [rank]'s local shape in [l]: the core's [c_shape] of its
   device, zero extents for a rank outside the layout's mesh. *)
let local_shape (l : C.clayout) rank =
  match C.cl_device l rank with
  | Some d -> Array.of_list (C.c_shape (C.cl_m l) l.cl_ty0 d)
  | None -> Array.make (List.length l.cl_ty0) 0

(* Every world rank's part of the region exchange as the runtime's
   RegionExchange takes it (the C ABI's lowering and the header of gen):
   its source and target local shapes and the extracted [region_sends],
   [region_recvs] and [region_copies] (Lowercuts.v), or, with pending axes,
   [reduce_sends] and [reduce_recvs] (Lowercutsred.v; a rank's own
   contribution is its entry from itself, so there are no copies). *)
type lists = {
  source_shapes : int array array;
  target_shapes : int array array;
  sends : (int * C.lbox list) list array;
  recvs : (int * C.lbox list) list array;
  copies : (C.lbox * C.lbox) list array;
}

let reducing (c : Problem.composed) = Problem.has_pending c.meshes

let lists (c : Problem.composed) =
  let p = c.meshes in
  let s = Problem.source_clayout c and t = Problem.target_clayout c in
  let per_rank f = Array.init (Problem.world p) f in
  let shapes = { source_shapes = per_rank (local_shape s); target_shapes = per_rank (local_shape t);
                 sends = [||]; recvs = [||]; copies = [||] } in
  if reducing c then
    let fill = Problem.fill p in
    { shapes with sends = per_rank (C.reduce_sends s p.src_pending t p.tgt_pending fill);
                  recvs = per_rank (C.reduce_recvs s p.src_pending t p.tgt_pending fill); copies = per_rank (fun _ -> []) }
  else
    { shapes with sends = per_rank (C.region_sends s t); recvs = per_rank (C.region_recvs s t);
                  copies = per_rank (C.region_copies s t) }

(* [budget]: --memory-budget, which [plan] and [check] weigh the live bytes
   against: the region exchange allocates a rank's two local arrays and
   nothing more (region_boxes_inside), and no plan for composed cuts needs less. *)

let make ?budget (c : Problem.composed) =
  let p = c.meshes in
  let src = Problem.source_clayout c and tgt = Problem.target_clayout c in
  let world = Problem.world p in
  let ranks = List.init world Fun.id in
  let sum f = List.fold_left (fun acc r -> Bounds.add acc (f r)) 0 ranks in
  let max_of f = List.fold_left (fun acc r -> max acc (f r)) 0 ranks in
  let boxes_of msgs = List.fold_left (fun acc (_, bs) -> acc + List.length bs) 0 msgs in
  (* Messages to other ranks, the boxes a rank moves within itself, and
     what it receives, from the lowering of either exchange. *)
  let sends, copies, recv =
    if reducing c then
      let fill = Problem.fill p in
      ((fun r -> List.filter (fun (q, _) -> q <> r) (C.reduce_sends src p.src_pending tgt p.tgt_pending fill r)),
       (fun r -> boxes_of (List.filter (fun (q, _) -> q = r) (C.reduce_recvs src p.src_pending tgt p.tgt_pending fill r))),
       C.region_reduce_received src p.src_pending tgt p.tgt_pending fill)
    else
      (C.region_sends src tgt, (fun r -> List.length (C.region_copies src tgt r)), C.region_recv_count src tgt)
  in
  { problem = c; world;
    messages = sum (fun r -> List.length (sends r));
    boxes = sum (fun r -> boxes_of (sends r));
    copies = sum copies;
    src_max = max_of (C.cl_local_elems src); tgt_max = max_of (C.cl_local_elems tgt);
    global_elems = List.fold_left ( * ) 1 (List.map snd c.csrc);
    recv_busiest = max_of recv; recv_total = sum recv;
    avg_divisor = (if p.op = Dtype.Avg then Some (C.cuts_avg_divisor src p.src_pending) else None);
    live_bytes = max_of (fun r -> Bounds.mul (C.region_live_elems src tgt r) p.elem_bytes); budget }

let plan ?budget c =
  let r = make ?budget c in
  (match budget with
   | Some b when r.live_bytes > b ->
       F.bad "--memory-budget: %d bytes per rank is below %d, the live bytes per rank of the region exchange for this problem (a rank's source and target local arrays)"
         b r.live_bytes
   | _ -> ());
  r

let plain_guarantees =
  [ ("region_exchange_sound", "executing the listed messages and copies leaves every rank its whole target holding");
    ("region_messages_match", "the boxes a rank sends to a peer are, in order and size, those the peer receives from it");
    ("region_recv_exact", "the boxes a rank receives are disjoint and hold exactly what its target holds and its source does not: region_recv_count, printed here, is the lower bound on every rank");
    ("region_exchange_optimal", "no valid sequence of steps between the two holdings receives less on any rank");
    ("region_boxes_inside", "every box a rank sends, receives or copies lies in its source or target local array: the live bytes are those two arrays") ]

(* What the reducing exchange's values are: for avg, the sums then one
   division (Lowercutsavg.v), else the combination (Lowercutsredproof.v). *)
let reducing_soundness (c : Problem.composed) =
  match c.meshes.op with
  | Dtype.Avg when c.meshes.tgt_pending <> [] ->
      [ ("region_reduce_avg_pending_sound", "every member of every target group holding the sum of one source group (fill: every member), dividing every position once by the source's group size leaves every target group averaging to its elements of the average (exact arithmetic; floats are tested, not proven)") ]
  | Dtype.Avg ->
      [ ("region_reduce_avg_sound", "adding the listed boxes into zero, in the listed order, then dividing every position once by the source's group size leaves every target rank its elements of the average (exact arithmetic; floats are tested, not proven)") ]
  | _ ->
      [ ("region_reduce_exchange_sound", "combining the listed boxes into the identity, in the listed order, leaves every target group combining to its elements of the array") ]

let reducing_guarantees =
  [ ("reduce_messages_match", "the boxes a rank sends to a peer are, in order and size, those the peer receives from it");
    ("region_reduce_contributors", "each element combines every member of one source group holding it once, in ascending source-mesh rank");
    ("region_reduce_recv_exact", "a receiving rank receives (group size - 1) contributions per target element, one more where its source lacks it") ]

let guarantees c = if reducing c then reducing_soundness c @ reducing_guarantees else plain_guarantees

let show_source (c : Problem.composed) =
  F.show_cty c.meshes.env c.csrc ^ F.show_pending c.meshes.env c.meshes.op c.meshes.src_pending
let show_target (c : Problem.composed) =
  F.show_cty c.meshes.tgt_env c.ctgt ^ F.show_pending c.meshes.tgt_env c.meshes.op c.meshes.tgt_pending

(* What the ranks agree on before they exchange (the C ABI's bind and a
   generated header's create): the problem's own layouts are unsharded
   placeholders, so the composed ones enter the digest through its plan
   lines. *)
let plan_lines = [ "exchange" ]

let digest (c : Problem.composed) =
  Problem.digest c.meshes ~plan_lines:(plan_lines @ [ show_source c; show_target c ])

(* The plan as a plan file: the one line `exchange`, the numbers as
   comments, so that `redist check --plan -` reads it back. *)
let text ~title (r : t) =
  let p = r.problem.meshes in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  let bytes elems = Bounds.mul_decimal elems p.elem_bytes in
  line "# %s: %s, %s -> %s, %s (%d bytes per element), strategy exchange (composed cuts: the %sregion exchange)" title
    (Problem.show_meshes p) (show_source r.problem) (show_target r.problem) p.dtype.name p.elem_bytes
    (if reducing r.problem then "reducing " else "");
  line "exchange  # -> %s  largest local array %d  busiest rank recv %d (%s B)" (show_target r.problem) r.tgt_max
    r.recv_busiest (bytes r.recv_busiest);
  line "# messages: %s carrying %d box%s, and %d local %s (the region lists of the extracted lowering)"
    (Report.plural r.messages "message") r.boxes (if r.boxes = 1 then "" else "es") r.copies
    (match (reducing r.problem, r.copies = 1) with
     | true, true -> "contribution" | true, false -> "contributions" | false, true -> "copy" | false, false -> "copies");
  if reducing r.problem then begin
    line "# busiest rank receives: %s (%s B): (group size - 1) per target element, one more where its source lacks it"
      (Report.plural r.recv_busiest "element") (bytes r.recv_busiest);
    line "# total received: %s (%s B) (summed over %d world ranks); order of combination: ascending source-mesh rank"
      (Report.plural r.recv_total "element") (bytes r.recv_total) r.world;
    Option.iter
      (fun n ->
        line "# avg: the exchange adds (every target member receives the sum), then every position is divided once by %d (cuts_avg_divisor: the source's pending group size)" n)
      r.avg_divisor
  end else begin
    line "# busiest rank receives: %s (%s B); lower bound %d (target elements not already held, max over ranks)"
      (Report.plural r.recv_busiest "element") (bytes r.recv_busiest) r.recv_busiest;
    line "# total received: %s (%s B); lower bound %d (summed over %d world ranks)" (Report.plural r.recv_total "element")
      (bytes r.recv_total) r.recv_total r.world
  end;
  line "# live bytes per rank: %d (its source and target local arrays; %s)%s; largest source array %d, largest target array %d; global %d"
    r.live_bytes
    (if reducing r.problem then "the staging of received contributions is not counted yet" else "proven: region_boxes_inside")
    (match r.budget with Some b -> Printf.sprintf ", within --memory-budget %d" b | None -> "")
    r.src_max r.tgt_max r.global_elems;
  line "# launches: 1 exchange (point-to-point, each rank only with the ranks whose holdings meet its own)";
  line "# proven in Coq:";
  List.iter (fun (name, what) -> line "#   %s: %s" name what) (guarantees r.problem);
  Buffer.contents b

(* The problem and its one step, in the fields every command's JSON gives
   them (the mesh is not refined: no refine lines). *)
let problem_fields (r : t) =
  let p = r.problem.meshes in
  [ ("mesh", Json.mesh p.env); ("source_mesh", Json.placed_mesh p.env p.src_ranks);
    ("target_mesh", Json.placed_mesh p.tgt_env p.tgt_ranks); ("strategy", `String "exchange");
    ("source", `String (show_source r.problem)); ("target", `String (show_target r.problem));
    ("dtype", `String p.dtype.name); ("elem_bytes", `Int p.elem_bytes); ("composed", `Bool true);
    ("refined_mesh", Json.mesh p.env); ("refine", `List []);
    ("steps",
      `List [ Json.step_object ("exchange", [], `Null) ~text:"exchange" ~after:(show_target r.problem)
                ~local_elems:r.tgt_max ~recv_max:r.recv_busiest ]) ]

let json_fields (r : t) =
  problem_fields r
  @ [ ("messages", `Int r.messages); ("message_boxes", `Int r.boxes); ("local_copies", `Int r.copies);
      ("peak_elems", `Int (max r.src_max r.tgt_max)); ("slices", `Int 0);
      ("src_elems", `Int r.src_max); ("tgt_elems", `Int r.tgt_max); ("global_elems", `Int r.global_elems);
      ("recv_elems_max", `Int r.recv_busiest); ("recv_elems_total", `Int r.recv_total);
      (* no bound is stated for a reducing exchange *)
      ("lower_bound_recv_max", if reducing r.problem then `Null else `Int r.recv_busiest);
      ("lower_bound_recv_total", if reducing r.problem then `Null else `Int r.recv_total);
      ("live_bytes", `Int r.live_bytes);
      ("memory_budget", match r.budget with Some b -> `Int b | None -> `Null); ("launches", `Int 1) ]
  @ (if reducing r.problem then [ ("reduction", `String (Dtype.op_name r.problem.meshes.op)) ] else [])
  @ [
      ("proven", `List (List.map (fun (n, _) -> `String n) (guarantees r.problem))) ]

let json ~command (r : t) : Yojson.Safe.t = Json.document ~command (json_fields r)

(* A plan file for a composed problem: the one line `exchange` (and
   comments); anything else is rejected at its line. *)
let check ?budget (c : Problem.composed) text =
  (match Syntax.plan_lines text with
   | [ (_, Syntax.Exchange) ] -> ()
   | [] -> raise (Report.Rejected "the plan is empty; a problem with composed cuts is planned by the one line 'exchange'")
   | (_, Syntax.Exchange) :: (line, _) :: _ | (line, _) :: _ ->
       raise (Report.Rejected (Printf.sprintf "line %d: a problem with composed cuts is planned by the one line 'exchange'" line))
   | exception Syntax.Plan_parse_error (line, col, msg) ->
       F.bad "--plan: line %d, column %d: %s" line col msg);
  let r = make ?budget c in
  (match budget with
   | Some b when r.live_bytes > b ->
       raise (Report.Rejected (Printf.sprintf "its live bytes per rank are %d (a rank's source and target local arrays), over --memory-budget %d" r.live_bytes b))
   | _ -> ());
  r
