(* `redist gen` of a problem with composed cuts (Part 3): every world
   rank's extracted region messages and local copies ([region_sends],
   [region_recvs], [region_copies] of Lowercuts.v; with pending axes
   [reduce_sends] and [reduce_recvs] of Lowercutsred.v, a rank's own
   contribution its entry from itself; as Cutplan.lists gathers them for the
   C ABI too) printed as constant tables, and one call into the runtime's
   RegionExchange, which reads its own rank's part of them.
   Nothing here or in the printed C++ computes a layout: the tables are the
   extracted values. *)

module C = Redist_core

(* The lists as the runtime's RegionTables hold them: per rank, a range of
   entries; every box once in [boxes], numbered in order. *)
type tables = {
  sends_begin : int list;
  sends : (int * int * int) list;  (* peer, first box, boxes *)
  recvs_begin : int list;
  recvs : (int * int * int) list;
  copies_begin : int list;
  copies : (int * int) list;       (* source box, target box *)
  boxes : C.lbox list;
}

let tables (rg : Cutplan.lists) =
  let boxes = ref [] and box_count = ref 0 in
  let add_box b = boxes := b :: !boxes; incr box_count; !box_count - 1 in
  (* Entries of every rank in turn, and where each rank's entries begin. *)
  let per_rank entries_of =
    let begins = ref [ 0 ] and entries = ref [] and count = ref 0 in
    Array.iteri
      (fun r _ ->
        List.iter (fun e -> entries := e :: !entries; incr count) (entries_of r);
        begins := !count :: !begins)
      rg.source_shapes;
    (List.rev !begins, List.rev !entries)
  in
  let messages lists r =
    List.map
      (fun (peer, bs) ->
        let first = !box_count in
        List.iter (fun b -> ignore (add_box b)) bs;
        (peer, first, List.length bs))
      lists.(r)
  in
  let sends_begin, sends = per_rank (messages rg.sends) in
  let recvs_begin, recvs = per_rank (messages rg.recvs) in
  let copies_begin, copies = per_rank (fun r -> List.map (fun (f, t) -> let f = add_box f in (f, add_box t)) rg.copies.(r)) in
  { sends_begin; sends; recvs_begin; recvs; copies_begin; copies; boxes = List.rev !boxes }

(* A constant array printed a few entries a line; its name, or nullptr
   where it has no entry (C++ has no empty arrays). *)
let table bd ~ctype ~name ~per_line entries =
  match entries with
  | [] -> "nullptr"
  | _ ->
      Cxx.line bd "inline constexpr %s %s[%d] = {" ctype name (List.length entries);
      let rec lines = function
        | [] -> ()
        | l ->
            let now = List.filteri (fun i _ -> i < per_line) l and rest = List.filteri (fun i _ -> i >= per_line) l in
            Cxx.line bd "    %s," (String.concat ", " now);
            lines rest
      in
      lines entries;
      Cxx.line bd "};";
      name

let tag (c : Problem.composed) = "p" ^ String.sub (Digest.to_hex (Digest.string (Problem.digest_literal (Cutplan.digest c) ^ "regions"))) 0 16

let header ?(command = Array.to_list Sys.argv) ~name (c : Problem.composed) =
  let p = c.meshes in
  let reducing = Cutplan.reducing c in
  let r = Cutplan.make c in
  let rg = Cutplan.lists c in
  let t = tables rg in
  let ndim = List.length c.csrc in
  let bd = Cxx.builder () in
  let line fmt = Cxx.line bd fmt and pre fmt = Cxx.preamble bd fmt in
  Emit.standard_preamble bd ~command;
  pre "Problem: %s, %s -> %s, %s (%d bytes per element)." (Problem.show_meshes p) (Cutplan.show_source c)
    (Cutplan.show_target c) p.dtype.name p.elem_bytes;
  if reducing then begin
    pre "Plan: one reducing region exchange (composed cuts, pending %s); world ranks 0 .. %d take part."
      (Dtype.op_name p.op) (r.world - 1);
    pre "Messages: %s carrying %d box%s, and %d local contribution%s: the extracted reduce_sends"
      (Report.plural r.messages "message") r.boxes (if r.boxes = 1 then "" else "es") r.copies
      (if r.copies = 1 then "" else "s");
    pre "  and reduce_recvs (Lowercutsred.v) of every rank, as the tables below; each target";
    pre "  element combines its contributions in the listed order (ascending source-mesh rank).";
    pre "Busiest rank receives %s (region_reduce_received: group size - 1 per target element," (Report.plural r.recv_busiest "element");
    pre "  one more where its source lacks it); largest source local array %d, target %d elements." r.src_max r.tgt_max;
    pre "Live bytes per rank: %d: its source and target local arrays; the exchange also owns" r.live_bytes;
    pre "  staging of G target local arrays for G contributions per element (none for G = 1),";
    pre "  which the proven live bytes do not count yet."
  end else begin
    pre "Plan: one region exchange (composed cuts); world ranks 0 .. %d take part." (r.world - 1);
    pre "Messages: %s carrying %d box%s, and %d local cop%s: the extracted region_sends," (Report.plural r.messages "message")
      r.boxes (if r.boxes = 1 then "" else "es") r.copies (if r.copies = 1 then "y" else "ies");
    pre "  region_recvs and region_copies (Lowercuts.v) of every rank, as the tables below.";
    pre "Busiest rank receives %s (region_recv_count: the target elements it does not" (Report.plural r.recv_busiest "element");
    pre "  already hold, the lower bound); largest source local array %d, target %d elements." r.src_max r.tgt_max;
    pre "Live bytes per rank: %d: its source and target local arrays; no workspace." r.live_bytes
  end;
  Emit.proven bd (Cutplan.guarantees c);
  Emit.runtime_prologue bd p ~std:[ "cstddef"; "cstdint" ] "region_exchange";
  Emit.value_type bd p;
  if reducing then begin
    Cxx.const bd "::redist::Dtype" "kDtype" (Cxx.Expr ("::redist::Dtype::" ^ p.dtype.name));
    Cxx.const bd "::redist::Op" "kOp" (Cxx.Expr ("::redist::Op::" ^ Dtype.op_name p.op));
    Cxx.const bd ~note:"avg: every target position divided once by it (cuts_avg_divisor); 1 otherwise" "::std::size_t"
      "kAvgDivisor" (Cxx.Int (Option.value r.avg_divisor ~default:1))
  end;
  Cxx.const bd ~note:"the world communicator has at least this many ranks" "int" "kWorldSize" (Cxx.Int r.world);
  Cxx.const bd "int" "kRank" (Cxx.Int ndim);
  Cxx.const bd "::std::size_t" "kGlobalShape[kRank]" (Cxx.Ints (List.map snd c.csrc));
  Cxx.const bd ~note:"the largest source local array" "::std::size_t" "kMaxSrcElems" (Cxx.Int r.src_max);
  Cxx.const bd ~note:"the largest target local array" "::std::size_t" "kMaxTgtElems" (Cxx.Int r.tgt_max);
  Cxx.const bd ~note:"the largest source + target local arrays of a rank" "::std::size_t" "kLiveBytes" (Cxx.Int r.live_bytes);
  line "// The meshes, layouts, element type and plan, as digests that create_exchange";
  line "// agrees on over the world (ranks running another problem fail there, all alike).";
  Cxx.const bd "::redist::ProblemDigest" "kProblem" (Cxx.Expr (Problem.digest_literal (Cutplan.digest c)));
  line "";
  line "// Each world rank's local arrays (row-major, dense): kRank extents per rank,";
  line "// zero where the rank is outside that layout's mesh (the core's c_shape).";
  let shapes name a =
    table bd ~ctype:"::std::size_t" ~name ~per_line:(max 1 (8 / ndim * ndim))
      (List.concat_map (fun s -> List.map string_of_int (Array.to_list s)) (Array.to_list a))
  in
  let source_shapes = shapes "kSourceShapes" rg.source_shapes and target_shapes = shapes "kTargetShapes" rg.target_shapes in
  line "";
  line "// Rank r's messages are entries [begin[r], begin[r + 1]): {peer, first box, boxes};";
  line "// the k-th box r sends to p and the k-th box p receives from r are one cell";
  if reducing then begin
    line "// (reduce_messages_match); r's entry from itself, paired with its entry to itself,";
    line "// is its own contribution, and r's receive entries are in the order of combination.";
  end else line "// (region_messages_match).  Copies: {source box, target box}.";
  let begins name l = table bd ~ctype:"::std::size_t" ~name ~per_line:16 (List.map string_of_int l) in
  let messages name l =
    table bd ~ctype:"::redist::RegionTableMessage" ~name ~per_line:4
      (List.map (fun (peer, first, n) -> Printf.sprintf "{%d, %d, %d}" peer first n) l)
  in
  let sends_begin = begins "kSendsBegin" t.sends_begin and sends = messages "kSends" t.sends in
  let recvs_begin = begins "kRecvsBegin" t.recvs_begin and recvs = messages "kRecvs" t.recvs in
  let copies_begin = begins "kCopiesBegin" t.copies_begin in
  let copies =
    table bd ~ctype:"::redist::RegionTableCopy" ~name:"kCopies" ~per_line:6
      (List.map (fun (f, t) -> Printf.sprintf "{%d, %d}" f t) t.copies)
  in
  line "";
  line "// Box b: kRank offsets, then kRank extents, in a local array.";
  let boxes =
    table bd ~ctype:"::std::size_t" ~name:"kBoxes" ~per_line:(2 * ndim * max 1 (4 / ndim))
      (List.concat_map (fun b -> List.map (fun (o, _) -> string_of_int o) b @ List.map (fun (_, e) -> string_of_int e) b) t.boxes)
  in
  line "";
  line "inline constexpr ::redist::RegionTables kTables = {kWorldSize, kRank, %s, %s," source_shapes target_shapes;
  line "                                                   %s, %s, %s, %s, %s, %s," sends_begin sends recvs_begin recvs
    copies_begin copies;
  line "                                                   %d, %s};" (List.length t.boxes) boxes;
  line "";
  line "// Collective over `world`, once: every rank of the world calls it and takes";
  line "// its own lists from the tables (a rank past kWorldSize holds nothing).";
  line "inline ::redist::Status create_exchange(::MPI_Comm world, ::redist::RegionExchange* out) {";
  if reducing then
    line "  return ::redist::RegionExchange::create(world, kTables, ::redist::RegionReduction{kDtype, kOp, kAvgDivisor}, kProblem, out);"
  else line "  return ::redist::RegionExchange::create(world, kTables, kElemBytes, kProblem, out);";
  line "}";
  line "";
  line "// Collective over the world.  src: this rank's source local array,";
  line "// ex.source_bytes() long (null and 0 where it holds nothing); dst: its";
  line "// target local array, ex.target_bytes() long.  Allocates nothing.";
  line "inline ::redist::Status run(::redist::RegionExchange& ex, const value_type* src, ::std::size_t src_bytes,";
  line "                            value_type* dst, ::std::size_t dst_bytes) {";
  line "  return ex.run(src, src_bytes, dst, dst_bytes);";
  line "}";
  line "";
  Cxx.const bd
    ~note:(if reducing then "the exchange owns its staging" else "the exchange runs on the local arrays alone")
    "::std::size_t" "kWorkspaceBytes" (Cxx.Int 0);
  List.iter (line "%s") (Emit.exchange_plan_interface ~backend:Emit.Mpi "::redist::RegionExchange");
  Cxx.finish bd [ Cxx.Named "redist_gen"; Cxx.Inline (tag c, "this problem and plan"); Cxx.Named name ]
