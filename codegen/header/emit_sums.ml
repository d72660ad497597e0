(* `redist gen` for pending sums: a plan of the extracted [plan_sums] as a
   header, for MPI, or NCCL when by the collectives (the runtime's reductions
   and collectives have the same names and arguments in redist::nccl).  The Part 1 collectives in the middle of the plan are the
   header [Emit.render] writes for them (namespace NAME_collectives, from
   the type the reductions end at to the target); around it this module
   writes namespace NAME: the reductions before (redist/mpi_reduce.hpp),
   then that header's run(), then the add_pending steps (for sum and prod,
   every member of a new pending group but the one with coordinate 0 sets
   its array to the identity), then, for avg, the one division: every
   reduction adds (kStepOp) and the destination is divided once by the
   product of the reductions' group sizes (kAvgDivisor).

   A plan by the reducing exchange is a redist::ReducingExchange
   (render_exchange), with the workspace and live bytes of its extracted
   lowering (Lowersumx.v, [lower_sumx]), or over NCCL a
   redist::nccl::ReducingExchange (render_exchange_nccl).

   The calls, their groups, arrays and scratch, the workspace and the live
   bytes are the extracted lowering's (Lowersums.v, [lower_sums];
   [sumplan_live_bytes], [sumplan_workspace_bytes] through Sumplan); this
   module only prints them. *)

module C = Redist_core
module F = Front

(* The pending axes of both sides as the mesh's axis numbers, which the
   runtime's placed meshes number alike. *)
let pending_lines (p : Problem.t) =
  let axes what env l =
    [ Printf.sprintf "inline constexpr int k%sPendingCount = %d;  // %s" what (List.length l)
        (if l = [] then "none" else String.concat ", " (List.map (F.axis_name env) l));
      Printf.sprintf "inline constexpr int k%sPending[%d] = %s;" what (max 1 (List.length l))
        (Emit.list_init (List.map string_of_int (if l = [] then [ 0 ] else l))) ]
  in
  ("// The pending-sum axes of the source and the target mesh." :: axes "Src" p.env p.src_pending)
  @ axes "Tgt" p.tgt_env p.tgt_pending @ [ "" ]

(* The preamble's problem: meshes, pending-sum types, element type. *)
let problem_line ?how bd (p : Problem.t) =
  Cxx.preamble bd "Problem: %s, %s -> %s, %s (%d bytes per element)%s." (Problem.show_meshes p)
    (Sumplan.show_pty p.op p.env (p.src, p.src_pending)) (Sumplan.show_pty p.op p.tgt_env (p.tgt, p.tgt_pending)) p.dtype.name
    p.elem_bytes (match how with Some h -> ", " ^ h | None -> "")

(* The opening both reducing-exchange headers share: the preamble with the
   theorems (and [notes]), the direct exchange's header for the same layouts
   as a part (namespace NAME_layouts), what they take from it, and the
   element type and operation. *)
let reducing_exchange_opening ~command ~name ~how ~notes ~runtime_header (r : Sumplan.t) =
  let p = r.problem in
  let plain = { p with src_pending = []; tgt_pending = [] } in
  let xr =
    match Xreport.of_exchange plain with
    | C.OK x -> x
    | C.Error _ -> failwith "xcheck rejected the layouts of an accepted reducing exchange"
  in
  let bd = Cxx.builder () in
  Emit.standard_preamble bd ~command;
  problem_line bd p ~how;
  Emit.proven bd (Sumplan.guarantees r);
  List.iter (Cxx.preamble bd "%s") notes;
  Cxx.prologue bd "#include \"redist/%s.hpp\"" runtime_header;
  Cxx.part bd (Emit.exchange_header ~command ~name:(name ^ "_layouts") ~backend:Emit.Mpi xr ~guarantees:Guarantees.exchange_checker);
  Cxx.line bd "namespace layouts = ::redist_gen::%s_layouts;" name;
  List.iter (Cxx.line bd "using layouts::%s;")
    [ "value_type"; "kElemBytes"; "kWorldSize"; "kMaxTgtElems"; "source_mesh"; "target_mesh" ];
  Cxx.const bd "::redist::Dtype" "kDtype" (Cxx.Expr ("::redist::Dtype::" ^ p.dtype.name));
  Cxx.const bd "::redist::Op" "kOp" (Cxx.Expr ("::redist::Op::" ^ Dtype.op_name p.op));
  bd

(* The reducing exchange: the meshes and layouts from the direct
   exchange's header for the same layouts (namespace NAME_layouts), and a
   redist::ReducingExchange built from them once. *)
let exchange_header ~command ~name (r : Sumplan.t) =
  let p = r.problem in
  let bd = reducing_exchange_opening ~command ~name ~how:"by the reducing exchange" ~notes:[] ~runtime_header:"reduce_exchange" r in
  let line fmt = Cxx.line bd fmt in
  Cxx.const bd "int" "kRank" (Cxx.Int ((List.length p.src)));
  Cxx.const bd "::std::size_t" "kGlobalShape[kRank]" (Cxx.Ints (C.global_shape p.src));
  List.iter (line "%s") (pending_lines p);
  Cxx.const bd ~note:"devices of a source pending group" "::std::size_t" "kGroupSize" (Cxx.Int ((C.group_size (F.core_mesh p.env) p.src_pending)));
  line "// Workspace: %d bytes (sumx_workspace_bytes): the largest staging of a target rank, kGroupSize" r.workspace_bytes;
  line "//   arrays of its target box on the member of a target group that receives the sum, none on the";
  line "//   others (sumx_workspace_exact).  ReducingExchange::workspace_bytes() is this rank's staging.";
  Cxx.const bd "::std::size_t" "kWorkspaceBytes" (Cxx.Int (r.workspace_bytes));
  line "static_assert(kWorkspaceBytes == ::redist::reducing_exchange_workspace_bytes(kGroupSize, kMaxTgtElems, kElemBytes),";
  line "              \"the runtime's staging formula\");";
  line "// Live bytes per rank: %d (proven: sumx_live_le): source box + target box + staging, at most" r.live_bytes;
  line "//   (largest source box + (1 + kGroupSize) * largest target box) * kElemBytes.";
  Cxx.const bd ~note:"sumx_live_le" "::std::size_t" "kLiveBytes" (Cxx.Int (r.live_bytes));
  Cxx.const bd ~note:"sumplan_alloc_bytes: source + destination + workspace, what --memory-budget bounds" "::std::size_t"
    "kAllocBytes" (Cxx.Int r.alloc_bytes);
  line "";
  line "// Collective over `world`, once: every rank of the world calls it.";
  line "inline ::redist::Status create_exchange(::MPI_Comm world, ::redist::ReducingExchange* out) {";
  line "  return ::redist::ReducingExchange::create(world, source_mesh(), layouts::source_layout(), kSrcPending, kSrcPendingCount,";
  line "                                            target_mesh(), layouts::target_layout(), kTgtPending, kTgtPendingCount, kDtype, kOp, out);";
  line "}";
  line "";
  line "// Collective over the world; allocates nothing.  src, dst and workspace: this";
  line "// rank's ex.source_bytes(), ex.target_bytes() and ex.workspace_bytes() (at most";
  line "// kWorkspaceBytes; null where 0).";
  line "inline ::redist::Status run(::redist::ReducingExchange& ex, const void* src, ::std::size_t src_bytes, void* dst,";
  line "                            ::std::size_t dst_bytes, void* workspace, ::std::size_t workspace_bytes) {";
  line "  return ex.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);";
  line "}";
  line "";
  List.iter (line "%s")
    (Emit.plan_interface ~backend:Emit.Mpi ~members:[ "::redist::ReducingExchange exchange;" ]
       ~create:[ "return create_exchange(world, &out->exchange);" ]
       ~source_bytes:[ "return plan.exchange.source_bytes();" ] ~target_bytes:[ "return plan.exchange.target_bytes();" ]
       ~run:[ "return plan.exchange.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);" ]
       ~split:
         ( [ "return plan.exchange.start(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);" ],
           [ "return plan.exchange.test(done);" ], [ "return plan.exchange.wait();" ] )
       ());
  Cxx.finish bd [ Cxx.Named "redist_gen"; Cxx.Named name ]

(* The reducing exchange over NCCL: the layouts as for MPI, and a
   redist::nccl::ReducingExchange; its staging workspace is the extracted
   [nccl_sumx_workspace_bytes] (Lowernccl.v). *)
let exchange_nccl_header ~command ~name (r : Sumplan.t) =
  let p = r.problem in
  let workspace =
    C.nccl_sumx_workspace_bytes p.elem_bytes (Problem.source_layout p) p.src_pending (Problem.target_layout p) p.tgt_pending
  in
  let bd =
    reducing_exchange_opening ~command ~name ~how:"by the reducing exchange over NCCL" ~runtime_header:"nccl_reduce_exchange"
      ~notes:
        [ "  nccl_sumx_workspace_bytes_exact: kWorkspaceBytes is the largest staging a rank of";
          "    either mesh needs (member arrays, then the messages it receives and sends).";
          "Contributions are combined in ascending group-member order on the device, as the MPI backend";
          "does on the host (runtime/README.md, pending sums): the same bits run after run." ]
      r
  in
  let line fmt = Cxx.line bd fmt in
  List.iter (line "%s") (pending_lines p);
  line "// The staging workspace (device memory) run() needs on any rank (proven:";
  line "// nccl_sumx_workspace_bytes_exact; ex.workspace_bytes() is this rank's own, at most this).";
  Cxx.const bd "::std::size_t" "kWorkspaceBytes" (Cxx.Int (workspace));
  line "";
  line "// Over an NCCL communicator of the world's ranks that the caller set up (its";
  line "// rank r is world rank r); collective, once; uses `stream` to agree.";
  line "inline ::redist::Status create_exchange(::ncclComm_t comm, ::cudaStream_t stream, ::redist::nccl::ReducingExchange* out) {";
  line "  return ::redist::nccl::ReducingExchange::create(comm, source_mesh(), layouts::source_layout(), kSrcPending,";
  line "                                                  kSrcPendingCount, target_mesh(), layouts::target_layout(),";
  line "                                                  kTgtPending, kTgtPendingCount, kDtype, kOp, stream, out);";
  line "}";
  line "";
  line "// The same with NCCL bootstrapped over `world` with MPI; collective over `world`, once.";
  line "inline ::redist::Status create_exchange(::MPI_Comm world, ::redist::nccl::ReducingExchange* out) {";
  line "  return ::redist::nccl::ReducingExchange::create(world, source_mesh(), layouts::source_layout(), kSrcPending,";
  line "                                                  kSrcPendingCount, target_mesh(), layouts::target_layout(),";
  line "                                                  kTgtPending, kTgtPendingCount, kDtype, kOp, out);";
  line "}";
  line "";
  line "// Collective over the world; enqueues on `stream`, allocates nothing.  src, dst:";
  line "// this rank's ex.source_bytes() and ex.target_bytes() of device memory (null where 0);";
  line "// workspace: kWorkspaceBytes of device memory.";
  line "inline ::redist::Status run(::redist::nccl::ReducingExchange& ex, const void* src, ::std::size_t src_bytes,";
  line "                            void* dst, ::std::size_t dst_bytes, void* workspace, ::std::size_t workspace_bytes,";
  line "                            ::cudaStream_t stream) {";
  line "  return ex.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, stream);";
  line "}";
  line "";
  List.iter (line "%s")
    (Emit.plan_interface ~backend:Emit.Nccl
       ~members:[ "::redist::nccl::ReducingExchange exchange;"; "::cudaStream_t stream = nullptr;" ]
       ~create:[ "out->stream = stream;"; "return create_exchange(world, &out->exchange);" ]
       ~source_bytes:[ "return plan.exchange.source_bytes();" ] ~target_bytes:[ "return plan.exchange.target_bytes();" ]
       ~run:[ "return plan.exchange.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, plan.stream);" ] ());
  Cxx.finish bd [ Cxx.Named "redist_gen"; Cxx.Named name ]

(* avg's one divisor: the product of the sizes of the groups the lowered
   reductions add over, one per source pending axis the target drops. *)
let avg_divisor (program : C.sum_program) =
  List.fold_left (fun n (c : C.rcall) -> n * snd c.rc_group) 1 program.sg_pre

let header ?(command = Array.to_list Sys.argv) ?(backend = Emit.Mpi) ~name (r : Sumplan.t) =
  let p = r.problem in
  (* The reducing exchange combines with its own kernel, every operation;
     the collectives use NCCL's reductions. *)
  if backend = Emit.Nccl && r.plan <> C.SumByExchange && not (Dtype.nccl_computes p.dtype p.op) then
    F.bad "--dtype %s: NCCL has no %s of it (no 16-bit integers; complex numbers part by part); use --backend mpi"
      p.dtype.name (Dtype.op_name p.op);
  (* The runtime's functions of the backend: same names and arguments. *)
  let ns, reduce_header = match backend with Emit.Mpi -> ("::redist::", "mpi_reduce") | Emit.Nccl -> ("::redist::nccl::", "nccl_reduce") in
  let pre, rf, plan, post =
    match r.plan with
    | C.SumByCollectives (pre, rf, plan, post) -> (pre, rf, plan, post)
    | C.SumByExchange -> ([], [], [], [])
  in
  if r.plan = C.SumByExchange then
    (match backend with Emit.Mpi -> exchange_header ~command ~name r | Emit.Nccl -> exchange_nccl_header ~command ~name r)
  else
  let inner_name = name ^ "_collectives" in
  let t1 = Sumplan.collectives_source p r.report in
  let plain = { p with src = t1; src_pending = []; tgt_pending = [] } in
  let env = F.env_of_refinement p.env rf in
  let inner =
    match Report.of_check plain env rf plan with
    | C.OK rep -> rep
    | C.Error _ -> failwith "the checker rejected the collectives of an accepted pending-sum plan"
  in
  let inner_header =
    Emit.collectives_header ~command ~digest:(Problem.digest p ~plan_lines:(List.map (fun (s : Sumplan.step) -> s.text) r.steps))
      ~name:inner_name ~backend inner ~guarantees:(Guarantees.for_check ~refined:(rf <> []))
  in
  let base = F.core_mesh p.env in
  let elem = p.elem_bytes in
  let program =
    C.lower_sums elem (Problem.fill p) (Problem.source_layout p) p.src_pending (Problem.target_layout p) pre rf plan post
  in
  let src_shape = C.local_shape base p.src in
  let live_bytes = r.live_bytes in
  let bd = Cxx.builder () in
  let line fmt = Cxx.line bd fmt and pre fmt = Cxx.preamble bd fmt and prol fmt = Cxx.prologue bd fmt in
  Emit.standard_preamble bd ~command;
  problem_line bd p;
  pre "Plan, accepted by the verified checker scheck (plan-file syntax):";
  List.iter (fun (s : Sumplan.step) -> pre "  %s  -> %s" s.text s.after) r.steps;
  Emit.proven bd (Sumplan.guarantees r);
  pre "Live bytes per rank: %d (proven: lower_sums_live_bytes): at every call, source +" live_bytes;
  pre "  destination + the reduction arrays it reads and writes (during the collectives";
  pre "  the one the reductions left) + its ping, pong and scratch.";
  pre "Workspace: %d bytes (sum_workspace_bytes; exactly what the calls use:" r.workspace_bytes;
  pre "  lower_sums_workspace_exact).";
  pre "Sums are added in ascending group-member order (runtime/README.md, pending sums).";
  prol "#include <cstring>";
  prol "#include \"redist/%s.hpp\"" reduce_header;
  prol "#include \"redist/placed.hpp\"  // source_mesh(), target_mesh()";
  Cxx.part bd inner_header;
  line "namespace collectives = ::redist_gen::%s;" inner_name;
  line "using collectives::value_type;";
  line "using collectives::kElemBytes;";
  line "using collectives::kDevices;";
  line "using collectives::kMeshAxes;";
  line "using collectives::kMeshSizes;";
  line "using collectives::kRank;";
  line "using collectives::kGlobalShape;";
  line "using collectives::kTgtElems;";
  line "using collectives::kTgtBytes;";
  line "using collectives::kTgtLayout;";
  line "using collectives::tgt_box;";
  Cxx.const bd "::redist::Dtype" "kDtype" (Cxx.Expr ("::redist::Dtype::" ^ p.dtype.name));
  Cxx.const bd "::redist::Op" "kOp" (Cxx.Expr ("::redist::Op::" ^ Dtype.op_name p.op));
  Cxx.const bd ~note:"what each reduction combines with: avg adds, then divides once at the end" "::redist::Op" "kStepOp"
    (Cxx.Expr "::redist::step_op(kOp)");
  if p.op = Dtype.Avg then
    Cxx.const bd ~note:"avg's one division: the devices the reductions below add over" "::std::size_t" "kAvgDivisor"
      (Cxx.Int (avg_divisor program));
  Cxx.const bd ~note:(Sumplan.show_pty p.op p.env (p.src, p.src_pending)) "::std::size_t" "kSrcElems"
    (Cxx.Int (List.fold_left ( * ) 1 src_shape));
  Cxx.const bd "::std::size_t" "kSrcBytes" (Cxx.Expr "kSrcElems * kElemBytes");
  Cxx.const bd "::redist::Layout" "kSrcLayout" (Cxx.Expr ((Emit.layout_lit src_shape elem)));
  line "";
  (* The source box: the pending axes shard nothing, so it is the box of
     the plain type. *)
  line "// The box of the global array that `rank` holds a contribution to under";
  line "// the source type.  False if rank is not in 0..kDevices-1.";
  line "inline constexpr bool src_box(int rank, ::std::size_t offset[kRank], ::std::size_t extent[kRank]) {";
  line "  if (rank < 0 || rank >= kDevices) return false;";
  List.iteri
    (fun d dd ->
      line "  offset[%d] = %s;" d (Emit.offset_expr p.env dd);
      line "  extent[%d] = %d;" d (C.extent base dd))
    p.src;
  line "  return true;";
  line "}";
  line "";
  List.iter (line "%s") (pending_lines p);
  line "// The mesh, on world ranks 0 .. kDevices - 1.";
  line "inline ::redist::PlacedMesh source_mesh() { return ::redist::PlacedMesh::contiguous(kMeshSizes, kMeshAxes, 0); }";
  line "inline ::redist::PlacedMesh target_mesh() { return source_mesh(); }";
  line "";
  (* The calls of the extracted lowering [lower_sums]: the reductions
     alternate between two workspace arrays, then comes their scratch, then
     the collectives' workspace. *)
  let reductions = program.sg_pre in
  line "// Workspace: the reductions' two arrays, their scratch, then the collectives'.";
  Cxx.const bd "::std::size_t" "kPre0Bytes" (Cxx.Int ((C.red0_bytes program)));
  Cxx.const bd "::std::size_t" "kPre1Bytes" (Cxx.Int ((C.red1_bytes program)));
  Cxx.const bd "::std::size_t" "kReduceScratchBytes" (Cxx.Int ((C.red_scratch_bytes program)));
  let scratch_formula (c : C.rcall) =
    let layout = Emit.layout_lit c.rc_shape elem in
    match c.rc_step with
    | C.ReduceScatter (d, _) -> Printf.sprintf "::redist::reduce_scatter_scratch_bytes(%s, %d, %d)" layout d (snd c.rc_group)
    | C.AllReduce _ -> Printf.sprintf "::redist::all_reduce_scratch_bytes(%s, %d)" layout (snd c.rc_group)
    | C.AddPending _ -> failwith "add_pending among the reductions"
  in
  if reductions <> [] then line "// The scratch the proofs lower each reduction with is the runtime's own formula:";
  List.iter (fun (c : C.rcall) -> line "static_assert(%s == %d, \"scratch formula\");" (scratch_formula c) c.rc_scratch) reductions;
  Cxx.const bd "::std::size_t" "kCollectivesOffset" (Cxx.Int ((C.collectives_offset program)));
  Cxx.const bd "::std::size_t" "kWorkspaceBytes" (Cxx.Int (r.workspace_bytes));
  line "static_assert(kCollectivesOffset == kPre0Bytes + kPre1Bytes + kReduceScratchBytes, \"workspace layout\");";
  line "static_assert(kWorkspaceBytes == kCollectivesOffset + collectives::kWorkspaceBytes, \"workspace layout\");";
  Cxx.const bd ~note:"lower_sums_live_bytes" "::std::size_t" "kLiveBytes" (Cxx.Int (live_bytes));
  Cxx.const bd ~note:"sumplan_alloc_bytes: source + destination + workspace, what --memory-budget bounds" "::std::size_t"
    "kAllocBytes" (Cxx.Int r.alloc_bytes);
  line "";
  let reduce_groups = List.sort_uniq compare (List.map (fun (c : C.rcall) -> c.rc_group) reductions) in
  Cxx.const bd "::redist::Group" (Printf.sprintf "kReduceGroups[%d]" (max 1 (List.length reduce_groups)))
    (Cxx.Expr
       (Emit.list_init
          (if reduce_groups = [] then [ "{1, 1}" ] else List.map (fun (st, sz) -> Printf.sprintf "{%d, %d}" st sz) reduce_groups)));
  line "";
  line "// Creates the mesh over `comm` (kDevices ranks) and prepares the groups of";
  line "// the reductions and of the collectives.  Collective over comm; once.";
  (match backend with
   | Emit.Mpi ->
       line "inline ::redist::Status create_mesh(::MPI_Comm comm, ::redist::Mesh* out) {";
       line "  if (::redist::Status st = collectives::create_mesh(comm, out); !st.ok()) return st;"
   | Emit.Nccl ->
       line "// The reductions and collectives are enqueued on `stream`.";
       line "inline ::redist::Status create_mesh(::MPI_Comm comm, ::cudaStream_t stream, ::redist::nccl::Mesh* out) {";
       line "  if (::redist::Status st = collectives::create_mesh(comm, stream, out); !st.ok()) return st;");
  line "  return out->prepare(kReduceGroups, %d);" (List.length reduce_groups);
  line "}";
  line "";
  line "// Takes this rank's contribution (src, kSrcLayout) to its target box (dst,";
  line "// kTgtLayout) under the target's pending sums.  Collective; no allocation.";
  if backend = Emit.Nccl then
    line "// NCCL: device buffers; run only enqueues on mesh.stream(): synchronize before reading dst.";
  line "inline ::redist::Status run(const %sMesh& mesh, const void* src, ::std::size_t src_bytes," ns;
  line "                          void* dst, ::std::size_t dst_bytes, void* workspace, ::std::size_t workspace_bytes) {";
  line "  if (::redist::Status st = %scheck_run(mesh, \"%s::run\", collectives::kProblem, kDevices, src, src_bytes, kSrcBytes, dst, dst_bytes," ns name;
  line "                                             kTgtBytes, workspace, workspace_bytes, kWorkspaceBytes); !st.ok())";
  line "    return st;";
  line "  unsigned char* ws = static_cast<unsigned char*>(workspace);";
  line "  unsigned char* scratch = ws + kPre0Bytes + kPre1Bytes;";
  line "  (void)scratch;";
  let array (b : C.sbuffer) =
    match b with
    | C.SSrc -> "src"
    | C.SRed0 -> "ws"
    | C.SRed1 -> "ws + kPre0Bytes"
    | C.SDst -> "dst"
  in
  List.iter
    (fun (c : C.rcall) ->
      let g = Printf.sprintf "::redist::Group{%d, %d}" (fst c.rc_group) (snd c.rc_group) in
      let layout = Emit.layout_lit c.rc_shape elem in
      let io = Printf.sprintf "%s, %d, %s, %d" (array c.rc_in) c.rc_in_bytes (array c.rc_out) c.rc_out_bytes in
      line "  // %s: %s" (Sumplan.show_sum_step p.env c.rc_step) (Sumplan.show_pty p.op p.env c.rc_pty);
      let call =
        match c.rc_step with
        | C.ReduceScatter (d, _) ->
            Printf.sprintf "%sreduce_scatter(mesh, %s, kDtype, kStepOp, %s, %d, %s, scratch, kReduceScratchBytes)" ns g layout d io
        | C.AllReduce _ -> Printf.sprintf "%sall_reduce(mesh, %s, kDtype, kStepOp, %s, %s, scratch, kReduceScratchBytes)" ns g layout io
        | C.AddPending _ -> failwith "add_pending among the reductions"
      in
      line "  if (::redist::Status st = %s; !st.ok()) return st;" call)
    reductions;
  let coll_src, coll_src_bytes =
    match List.rev reductions with [] -> ("src", "src_bytes") | c :: _ -> (array c.rc_out, string_of_int c.rc_out_bytes)
  in
  line "  // The collectives: %s -> %s" (F.show_ty p.env t1) (F.show_ty p.tgt_env p.tgt);
  line "  if (::redist::Status st = collectives::run(mesh, %s, %s, dst, dst_bytes, ws + kCollectivesOffset," coll_src coll_src_bytes;
  line "                                              collectives::kWorkspaceBytes); !st.ok())";
  line "    return st;";
  List.iter
    (fun (c : C.rcall) ->
      match c.rc_step with
      | C.AddPending a ->
          let st, sz = c.rc_group in
          if Dtype.every_member_keeps p.op then
            line "  // add_pending(%s): every member keeps the value (%s)." (F.axis_name p.env a) (Dtype.op_name p.op)
          else begin
          line "  // add_pending(%s): the member with coordinate 0 keeps the value, the others hold the identity." (F.axis_name p.env a);
          (match backend with
           | Emit.Mpi ->
               line "  if (::redist::group_index(mesh.rank(), ::redist::Group{%d, %d}) != 0) ::redist::local::fill_identity(kDtype, kOp, dst, kTgtElems);" st sz
           | Emit.Nccl ->
               line "  if (::redist::group_index(mesh.rank(), ::redist::Group{%d, %d}) != 0)" st sz;
               line "    if (::redist::Status st = ::redist::nccl::fill_identity(mesh, kDtype, kOp, dst, kTgtElems); !st.ok()) return st;")
          end
      | C.ReduceScatter _ | C.AllReduce _ -> failwith "a reduction after the collectives")
    program.sg_post;
  if p.op = Dtype.Avg then begin
    line "  // avg: the reductions added; the one division, by every device they added over.";
    match backend with
    | Emit.Mpi -> line "  ::redist::local::divide(kDtype, dst, kTgtElems, kAvgDivisor);"
    | Emit.Nccl -> line "  if (::redist::Status st = ::redist::nccl::divide(mesh, kDtype, dst, kTgtElems, kAvgDivisor); !st.ok()) return st;"
  end;
  line "  return ::redist::Status();";
  line "}";
  line "";
  Cxx.const bd ~note:"the mesh is world ranks 0 .. kDevices - 1" "int" "kWorldSize" (Cxx.Expr "kDevices");
  List.iter (line "%s")
    (Emit.plan_interface ~backend
       ~members:[ Printf.sprintf "%sMesh mesh;" ns ]
       ~create:[ (match backend with Emit.Mpi -> "return create_mesh(world, &out->mesh);" | Emit.Nccl -> "return create_mesh(world, stream, &out->mesh);") ]
       ~source_bytes:[ "(void)plan;"; "return kSrcBytes;" ] ~target_bytes:[ "(void)plan;"; "return kTgtBytes;" ]
       ~run:[ "return run(plan.mesh, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);" ] ());
  Cxx.finish bd [ Cxx.Named "redist_gen"; Cxx.Named name ]
