(* `redist gen --in-place`: the direct exchange in place as a header.  Its
   data is the extracted [inplace_plan]'s schedule (Inplaceplan), printed
   as one constant array of moves per round, with every world rank's
   buffer ([buf_size]) and the staging; its code is one call to the
   runtime's executor, redist::InPlace (redist/in_place.hpp), which runs
   the rounds on one buffer and one staging per rank. *)

module C = Redist_core
module F = Front

(* What create() agrees on over the world besides the schedule's own
   digest (InPlace::create compares that too). *)
let digest (r : Inplaceplan.t) =
  Problem.digest r.exchange.problem ~plan_lines:[ Printf.sprintf "exchange in place, staging %d" r.staging_elems ]

let tag (r : Inplaceplan.t) =
  "p" ^ String.sub (Digest.to_hex (Digest.string (Problem.digest_literal (digest r) ^ "in place"))) 0 16

let area = function C.Buf -> "kBuf" | C.Stage -> "kStage"

let place (x : C.place) = Printf.sprintf "{%d, %s, %d}" x.pl_rank (area x.pl_area) x.pl_off

let header ?(command = Array.to_list Sys.argv) ~name (r : Inplaceplan.t) =
  let x = r.exchange in
  let p = x.problem in
  let e = p.elem_bytes in
  let bytes elems = Bounds.mul elems e in
  let buffers = List.init x.world (C.buf_size (Problem.source_layout p) (Problem.target_layout p)) in
  let bd = Cxx.builder () in
  let line fmt = Cxx.line bd fmt and pre fmt = Cxx.preamble bd fmt in
  Emit.standard_preamble bd ~command;
  pre "Problem: %s, %s -> %s, %s (%d bytes per element)." (Problem.show_meshes p) (F.show_ty p.env p.src)
    (F.show_ty p.tgt_env p.tgt) p.dtype.name e;
  pre "Plan: the direct exchange in place, %s of moves (the extracted inplace_plan): every" (Report.plural r.rounds "round");
  pre "  rank has one buffer of max(|src box|, |tgt box|) elements, holding its source box";
  pre "  row-major at offset 0 before run() and its target box after, and a staging.";
  pre "Buffer per rank: at most %s (%d B); staging: %s (%d B)%s." (Report.plural r.buffer_elems "element")
    (bytes r.buffer_elems) (Report.plural r.staging_elems "element") (bytes r.staging_elems)
    (match r.budget with Some b -> Printf.sprintf ", within --memory-budget %d" b | None -> "");
  pre "Live bytes per rank: at most %d (buffer + staging)." (Inplaceplan.live_bytes r);
  pre "Busiest rank receives %s (lower bound %d); %d messages, %d local copies."
    (Report.plural r.recv_busiest "element") x.lb_max r.messages r.local_copies;
  Emit.proven bd Guarantees.in_place;
  Emit.runtime_prologue bd p ~std:[ "cstddef"; "cstdint" ] "in_place";
  Emit.value_type bd p;
  Cxx.const bd ~note:"the world communicator has at least this many ranks" "int" "kWorldSize" (Cxx.Int x.world);
  Cxx.const bd ~note:"buf_size: each world rank's max(|src box|, |tgt box|)" "::std::size_t" "kBufferElems[kWorldSize]"
    (Cxx.Ints buffers);
  Cxx.const bd ~note:"what each world rank passes as its buffer" "::std::size_t" "kBufferBytes[kWorldSize]"
    (Cxx.Ints (List.map bytes buffers));
  Cxx.const bd ~note:"the largest buffer" "::std::size_t" "kMaxBufferBytes" (Cxx.Int (bytes r.buffer_elems));
  Cxx.const bd ~note:"the staging the schedule was planned within" "::std::size_t" "kStagingElems" (Cxx.Int r.staging_elems);
  Cxx.const bd ~note:"what every rank passes as its staging" "::std::size_t" "kStagingBytes" (Cxx.Int (bytes r.staging_elems));
  Cxx.const bd ~note:"inplace_live_bytes: the largest buffer + the staging" "::std::size_t" "kLiveBytes"
    (Cxx.Int (Inplaceplan.live_bytes r));
  Cxx.const bd "::std::size_t" "kRounds" (Cxx.Int r.rounds);
  line "// The meshes, layouts, element type and staging, as digests that create() agrees";
  line "// on over the world, with the schedule's (ranks running another problem fail there, all alike).";
  Cxx.const bd "::redist::ProblemDigest" "kProblem" (Cxx.Expr (Problem.digest_literal (digest r)));
  line "";
  line "// The schedule: each round's moves, {from, to, length}, a place being {world rank,";
  line "// area, offset}, offsets and lengths in elements.  Within a round no run written";
  line "// meets a run read or another written (round_sequential).";
  Cxx.const bd "::redist::InPlaceArea" "kBuf" (Cxx.Expr "::redist::InPlaceArea::buffer");
  Cxx.const bd "::redist::InPlaceArea" "kStage" (Cxx.Expr "::redist::InPlaceArea::staging");
  let round_entries =
    List.mapi
      (fun k (rd : C.round) ->
        match rd with
        | [] -> "{nullptr, 0}"
        | _ ->
            line "inline constexpr ::redist::InPlaceMove kRound%d[] = {" k;
            List.iter (fun (mv : C.move) -> line "    {%s, %s, %d}," (place mv.mv_from) (place mv.mv_to) mv.mv_len) rd;
            line "};";
            Printf.sprintf "{kRound%d, %d}" k (List.length rd))
      r.schedule
  in
  let rounds =
    match round_entries with
    | [] -> "nullptr"
    | _ ->
        Cxx.const bd "::redist::InPlaceRound" "kRoundTable[kRounds]" (Cxx.Expr (Emit.list_init round_entries));
        "kRoundTable"
  in
  Cxx.const bd "::redist::InPlaceTables" "kSchedule"
    (Cxx.Expr (Printf.sprintf "{kBufferElems, kWorldSize, kStagingElems, %s, kRounds}" rounds));
  line "";
  line "// Collective over `world` (at least kWorldSize ranks), once.";
  line "inline ::redist::Status create(::MPI_Comm world, ::redist::InPlace* out) {";
  line "  return ::redist::InPlace::create(world, kSchedule, kElemBytes, kProblem, out);";
  line "}";
  line "";
  line "// Collective over the world.  buffer: this rank's kBufferBytes[rank] (null and 0";
  line "// past the table or where 0), its source box at offset 0 before, its target box";
  line "// after; staging: kStagingBytes, apart from the buffer.  Allocates nothing.";
  line "inline ::redist::Status run(::redist::InPlace& ip, void* buffer, ::std::size_t buffer_bytes, void* staging,";
  line "                            ::std::size_t staging_bytes) {";
  line "  return ip.run(buffer, buffer_bytes, staging, staging_bytes);";
  line "}";
  Cxx.finish bd [ Cxx.Named "redist_gen"; Cxx.Inline (tag r, "this problem and schedule"); Cxx.Named name ]
