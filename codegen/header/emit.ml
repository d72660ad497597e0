(* `redist gen`: a C++17 header specialised to one problem and plan, over
   the runtime's API (runtime/include/redist/mpi.hpp, or nccl.hpp, whose
   functions have the same names and parameters in namespace redist::nccl).  Every shape, group
   and permutation table is a constant computed here from the core
   ([local_shape], [holder], [rank], [offset]); the header only sequences
   runtime calls. *)

module C = Redist_core
module F = Front

type backend = Mpi | Nccl

(* Keywords and alternative tokens of C++17 and C++20 (a header compiled
   as C++20 must not meet a namespace called [concept]). *)
let cxx_keywords =
  [ "alignas"; "alignof"; "and"; "and_eq"; "asm"; "auto"; "bitand"; "bitor"; "bool"; "break"; "case";
    "catch"; "char"; "char8_t"; "char16_t"; "char32_t"; "class"; "co_await"; "co_return"; "co_yield";
    "compl"; "concept"; "const"; "consteval"; "constexpr"; "constinit"; "const_cast"; "continue";
    "decltype"; "default"; "delete"; "do"; "double"; "dynamic_cast"; "else"; "enum"; "explicit";
    "export"; "extern"; "false"; "float"; "for"; "friend"; "goto"; "if"; "inline"; "int"; "long";
    "mutable"; "namespace"; "new"; "noexcept"; "not"; "not_eq"; "nullptr"; "operator"; "or"; "or_eq";
    "private"; "protected"; "public"; "register"; "reinterpret_cast"; "requires"; "return"; "short";
    "signed"; "sizeof"; "static"; "static_assert"; "static_cast"; "struct"; "switch"; "template";
    "this"; "thread_local"; "throw"; "true"; "try"; "typedef"; "typeid"; "typename"; "union";
    "unsigned"; "using"; "virtual"; "void"; "volatile"; "wchar_t"; "while"; "xor"; "xor_eq" ]

(* Lower-case macros that the headers a generated header includes (the C and
   C++ standard libraries, mpi.h, cuda_runtime.h) or GNU modes define: a
   macro is replaced before the compiler sees a namespace.  Names in
   capitals are left to macros as a rule (NULL, EOF, MPI_COMM_WORLD). *)
let lowercase_macros =
  [ "errno"; "assert"; "offsetof"; "stdin"; "stdout"; "stderr"; "linux"; "unix"; "i386"; "setjmp";
    "va_start"; "va_arg"; "va_end"; "va_copy"; "alloca"; "major"; "minor"; "makedev" ]

(* Far beyond a readable name; the name appears in symbols and messages. *)
let max_name_chars = 200

(* The name goes inside [::redist_gen::p<hash>::], and the generated code
   names everything else from the global namespace ([::std::], [::redist::],
   [::MPI_Comm]), so any identifier compiles there except keywords, macros
   and the names reserved to the implementation. *)
let check_name name =
  let ok_char ch = Syntax.is_name_start ch || Syntax.is_digit ch in
  let refuse why = F.bad "--name: %s is not accepted: %s" (Excerpt.quote name) why in
  if name = "" then F.bad "--name: empty name";
  if String.length name > max_name_chars then
    refuse (Printf.sprintf "longer than %d characters" max_name_chars);
  if not (Syntax.is_name_start name.[0] && String.for_all ok_char name) then
    refuse "a C++ identifier has letters, digits and '_', and does not start with a digit";
  if name.[0] = '_' then refuse "names starting with '_' are reserved in C++";
  let rec has_double k = k + 1 < String.length name && ((name.[k] = '_' && name.[k + 1] = '_') || has_double (k + 1)) in
  if has_double 0 then refuse "names containing \"__\" are reserved in C++";
  if List.mem name cxx_keywords then refuse "it is a keyword in C++17 or C++20";
  if List.mem name lowercase_macros then
    refuse "it is a macro of the C library, MPI or GNU mode (-std=gnu++17), replaced before it could name a namespace";
  if String.for_all (fun ch -> not (ch >= 'a' && ch <= 'z')) name then
    refuse "names without a lower-case letter are left to macros (NULL, EOF, MPI_COMM_WORLD); use e.g. a lower-case name"

(* What the ranks agree on in create_mesh: the problem and the plan's lines
   (the C ABI's bind agrees on the same for the same plan). *)
let collectives_digest (r : Report.t) =
  Problem.digest r.problem ~plan_lines:(Xreport.step_lines (Xreport.Collectives r))

(* The inline namespace that tells problems apart: every header for one
   (problem, plan, backend) gets the same one, headers for different ones
   get different ones, so two of them sharing a --name never share a
   symbol. *)
let problem_tag ~backend digest =
  let identity = Problem.digest_literal digest ^ match backend with Mpi -> "mpi" | Nccl -> "nccl" in
  "p" ^ String.sub (Digest.to_hex (Digest.string identity)) 0 16

(* Likewise for an exchange plan, whose create_exchange agrees on its digest. *)
let exchange_digest (r : Xreport.t) = Problem.digest r.problem ~plan_lines:(Xreport.step_lines (Xreport.Exchange r))

let exchange_tag (r : Xreport.t) =
  "p" ^ String.sub (Digest.to_hex (Digest.string (Problem.digest_literal (exchange_digest r) ^ "exchange"))) 0 16

(* The C++ expression of a rank's coordinate on axis [a]: the core's
   rank-space group of the axis (its weight in the rank, its size). *)
let coord_expr m (a : F.axis_info) =
  let stride, size = C.axis_group m a.id in
  Printf.sprintf "((rank / %d) %% %d)" stride size

(* Offset of [rank]'s box in dimension [d]: extent times the mixed-radix
   value of the coordinates of the dimension's axes (the model's
   [offset]). *)
let offset_expr env ((ids, _) as d : C.dimty) =
  let n = F.extent env d in
  let m = F.core_mesh env in
  match ids with
  | [] -> "0"
  | _ ->
      let info id = List.find (fun (a : F.axis_info) -> a.id = id) env.F.axes in
      let idx =
        List.fold_left
          (fun acc id ->
            let a = info id in
            if acc = "" then coord_expr m a else Printf.sprintf "(%s * %d + %s)" acc a.size (coord_expr m a))
          "" ids
      in
      Printf.sprintf "::std::size_t{%d} * static_cast<::std::size_t>%s" n idx

let list_init l = "{" ^ String.concat ", " l ^ "}"

let layout_lit shape elem =
  Printf.sprintf "::redist::Layout{%d, %s, %d}" (List.length shape) (list_init (List.map string_of_int shape)) elem

let group_of (c : C.call) =
  match c.cl_group with Some g -> g | None -> invalid_arg "Emit: a collective call without a group"

(* The runtime's constexpr scratch formula a call's extracted scratch must
   equal (the header static_asserts it): gathers and all-to-alls only. *)
let scratch_formula elem (c : C.call) =
  match c.cl_op with
  | Some (C.AllGather d) ->
      Some (Printf.sprintf "::redist::all_gather_scratch_bytes(%s, %d, %d)" (layout_lit c.cl_shape elem) d (snd (group_of c)))
  | Some (C.AllToAll (a, t)) ->
      Some (Printf.sprintf "::redist::all_to_all_scratch_bytes(%s, %d, %d, %d)" (layout_lit c.cl_shape elem) a t (snd (group_of c)))
  | _ -> None

(* A word of a command line as a shell would need it, safe inside a //
   comment: plain words as they are, others in single quotes, and any
   control, non-ASCII or backslash byte (a trailing backslash would continue
   the comment onto the next line) as $'\xHH'. *)
let shell_word w =
  let plain ch = Syntax.is_name_char ch || String.contains "-+=:,/@%^" ch in
  let printable ch = ch >= ' ' && ch <= '~' && ch <> '\\' in
  if w <> "" && String.for_all plain w then w
  else if String.for_all printable w then "'" ^ String.concat "'\\''" (String.split_on_char '\'' w) ^ "'"
  else
    "$'"
    ^ String.concat ""
        (List.map
           (fun ch -> if printable ch && ch <> '\'' then String.make 1 ch else Printf.sprintf "\\x%02x" (Char.code ch))
           (List.of_seq (String.to_seq w)))
    ^ "'"

(* The interface every generated header has, whatever plan the cost model
   chose (collectives, exchange, hybrid, pending sums): a Plan made once by
   create(), collective over the world, and run() with this rank's source
   and destination and a workspace of kWorkspaceBytes; source_bytes() and
   target_bytes() say what this rank passes; over MPI, run() in two halves
   too: start(), then test() (local) until done or wait().  Code written
   against it compiles whichever plan `auto` picks.  [members]: Plan's
   fields; [create], [run], [source_bytes], [target_bytes]: statements over
   [out] and [plan]; [split]: start's, test's and wait's for a plan that
   overlaps (without it, start runs the plan whole). *)
let plan_interface ?split ~backend ~members ~create ~run ~source_bytes ~target_bytes () =
  let indent = List.map (fun l -> "  " ^ l) in
  let stream = match backend with Mpi -> "" | Nccl -> ", ::cudaStream_t stream" in
  let buffers = [ "(Plan& plan, const void* src, ::std::size_t src_bytes, void* dst,";
                  "::std::size_t dst_bytes, void* workspace, ::std::size_t workspace_bytes) {" ] in
  let signature name = function
    | [ first; second ] -> [ "inline ::redist::Status " ^ name ^ first; String.make (String.length name + 25) ' ' ^ second ]
    | _ -> assert false
  in
  let split_phase =
    match (backend, split) with
    | Nccl, _ -> []
    | Mpi, Some (start, test, wait) ->
        [ "// Split phase: start() posts the messages; until test() says done or wait()";
          "// returns, src, dst and the workspace belong to the plan." ]
        @ signature "start" buffers @ indent start
        @ [ "}"; "inline ::redist::Status test(Plan& plan, bool* done) {" ] @ indent test
        @ [ "}"; "inline ::redist::Status wait(Plan& plan) {" ] @ indent wait @ [ "}"; "" ]
    | Mpi, None ->
        [ "// Split phase: this plan's collectives do not overlap, so start() runs it";
          "// whole; test() and wait() find it done." ]
        @ signature "start" buffers
        @ [ "  return run(plan, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);"; "}";
            "inline ::redist::Status test(Plan& plan, bool* done) {"; "  (void)plan;"; "  *done = true;";
            "  return ::redist::Status();"; "}";
            "inline ::redist::Status wait(Plan& plan) {"; "  (void)plan;"; "  return ::redist::Status();"; "}"; "" ]
  in
  [ "// The interface every header redist generates has, whatever plan it holds:";
    "// create() once, collective over the world (kWorldSize ranks at least);";
    "// run() with this rank's source_bytes() of source, target_bytes() of";
    "// destination (null where 0) and a workspace of kWorkspaceBytes (null if 0).";
    "struct Plan {" ]
  @ indent members
  @ [ "};"; "";
      Printf.sprintf "inline ::redist::Status create(::MPI_Comm world%s, Plan* out) {" stream ]
  @ indent create
  @ [ "}"; "";
      "inline ::std::size_t source_bytes(const Plan& plan) {" ] @ indent source_bytes @ [ "}";
      "inline ::std::size_t target_bytes(const Plan& plan) {" ] @ indent target_bytes @ [ "}"; "" ]
  @ signature "run" buffers @ indent run @ [ "}"; "" ]
  @ split_phase

(* What a caller allocates on a rank for a plan without pending sums, the
   figure --memory-budget bounds (the extracted splan_alloc_bytes). *)
let alloc_bytes_const bd (p : Problem.t) plan =
  Cxx.const bd ~note:"splan_alloc_bytes: source + destination + workspace, what --memory-budget bounds" "::std::size_t"
    "kAllocBytes"
    (Cxx.Int (C.splan_alloc_bytes p.elem_bytes (Problem.source_layout p) (Problem.target_layout p) (Xreport.splan plan)))

let interface_check_lines =
  [ Printf.sprintf "static_assert(REDIST_INTERFACE_VERSION == %d," Version.interface_version;
    Printf.sprintf "              \"this header was generated by redist %s for runtime interface version %d, \""
      Version.version Version.interface_version;
    "              \"and this runtime's redist/version.hpp has another: regenerate the header with \"";
    "              \"the redist of this runtime\");" ]

(* The includes of a header over the runtime's [runtime_header], and the
   check that the runtime has the interface the header was generated for. *)
let runtime_prologue bd (p : Problem.t) ~std runtime_header =
  if Dtype.is_complex p.dtype then Cxx.prologue bd "#include <complex>";
  List.iter (Cxx.prologue bd "#include <%s>") std;
  Cxx.prologue bd "";
  Cxx.prologue bd "#include \"redist/%s.hpp\"" runtime_header;
  Cxx.prologue bd "#include \"redist/version.hpp\"";
  Cxx.prologue bd "";
  List.iter (Cxx.prologue bd "%s") interface_check_lines;
  Cxx.prologue bd ""

(* The first lines of every header: what wrote it, and the command. *)
let standard_preamble bd ~command =
  Cxx.preamble bd "Generated by redist %s (revision %s) for runtime interface version %d; do not edit." Version.version
    Version.revision Version.interface_version;
  Cxx.preamble bd "Command: %s" (String.concat " " (List.map shell_word ("redist" :: List.tl command)));
  Cxx.preamble bd ""

(* The theorems that cover a header's plan, in its preamble. *)
let proven bd guarantees =
  Cxx.preamble bd "Proven in Coq (proofs/):";
  List.iter (fun (n, what) -> Cxx.preamble bd "  %s: %s" n what) guarantees

(* The element type of a header: value_type and kElemBytes. *)
let value_type bd (p : Problem.t) =
  if Dtype.is_float8 p.dtype then begin
    Cxx.line bd "// An 8-bit float (%s), as its bits: redist only moves elements." p.dtype.name;
    List.iter (Cxx.line bd "%s") [ Printf.sprintf "struct %s {" p.dtype.ctype; "  ::std::uint8_t bits;"; "};" ]
  end;
  Cxx.line bd "using value_type = %s;  // storage type of %s" p.dtype.ctype p.dtype.name;
  Cxx.const bd "::std::size_t" "kElemBytes" (Cxx.Int p.elem_bytes);
  Cxx.line bd "static_assert(sizeof(value_type) == kElemBytes, \"element size\");"

(* [command]: the command line recorded in the header, this process's by
   default.  [digest]: what create_mesh agrees on, this plan's by default
   (a pending-sum header's collectives part agrees on the whole plan). *)
let collectives_header ?(command = Array.to_list Sys.argv) ?digest ~name ~backend (r : Report.t) ~guarantees =
  let digest = match digest with Some d -> d | None -> collectives_digest r in
  let ns = match backend with Mpi -> "::redist::" | Nccl -> "::redist::nccl::" in
  let p = r.problem in
  let env = r.env in
  let m = F.core_mesh env in
  let base = F.core_mesh p.env in
  let ndev = C.mesh_size m in
  let rank = List.length p.src in
  let elem = p.elem_bytes in
  let steps = Array.of_list r.steps in
  let nsteps = Array.length steps in
  let calls = Lazy.force r.calls in
  let ping_bytes = C.ping_bytes calls and pong_bytes = C.pong_bytes calls and scratch_bytes = C.scratch_bytes calls in
  let bd = Cxx.builder () in
  let line fmt = Cxx.line bd fmt and pre fmt = Cxx.preamble bd fmt and prol fmt = Cxx.prologue bd fmt in
  (* ---- header comment ---- *)
  standard_preamble bd ~command;
  pre "Problem: mesh %s (%d devices), %s -> %s, %s (%d bytes per element)." (F.show_mesh p.env) ndev
    (F.show_ty p.env p.src) (F.show_ty p.env p.tgt) p.dtype.name elem;
  if env.axes <> p.env.axes then pre "Refined mesh: %s." (F.show_mesh env);
  pre "Plan, accepted by the verified checker (plan-file syntax, as `redist check` reads it):";
  List.iter (pre "  %s") (F.refine_lines ~base:p.env env);
  Array.iter (fun (s : Report.step) -> pre "  %s  -> %s" (F.show_collective env s.coll) (F.show_ty env s.after)) steps;
  if nsteps = 0 then pre "  (no steps: the source type is the target type; run copies src to dst)";
  pre "Peak local size %s (max(|src|, |tgt|) = %d); the busiest rank receives %s"
    (Report.plural r.peak "element") (max r.src_elems r.tgt_elems) (Report.plural r.recv_busiest "element");
  pre "(lower bound %d); %s." r.lb_max (Report.plural r.launches "communicating collective");
  proven bd guarantees;
  pre "Live bytes per rank: %d (proven: lower_live_bytes): at every call, source +" (Lazy.force r.live_bytes);
  pre "  destination + the workspace arrays it reads and writes + its scratch.";
  pre "Workspace: %d bytes (workspace_bytes; exactly what the calls use: lower_workspace_exact)"
    (C.workspace_bytes calls);
  pre "  = ping %d + pong %d + scratch %d." ping_bytes pong_bytes scratch_bytes;
  runtime_prologue bd p ~std:[ "cstddef"; "cstdint"; "cstring"; "string" ] (match backend with Mpi -> "mpi" | Nccl -> "nccl");
  (* The same section group name for every header of this --name, holding
     a symbol named by the problem, which run() refers to: the linker keeps
     one group per name, so the run() of a second header of this name for
     another problem refers to a symbol that is gone, and the link fails
     naming it (with --gc-sections too: a kept run() keeps its reference).
     ELF only; the device pass of nvcc sees no host assembly. *)
  let tag = problem_tag ~backend digest in
  let guard_sym = Printf.sprintf "redist_gen.%s.%s.name_reused_for_another_problem" name tag in
  let elf_host_only = "#if defined(__ELF__) && !defined(__CUDA_ARCH__)" in
  prol "// Two headers with --name %s for different problems in one program would" name;
  prol "// put two different codes under one name: the link fails instead, with an";
  prol "// undefined reference to %s." guard_sym;
  prol "%s" elf_host_only;
  let directives =
    [ Printf.sprintf ".pushsection .rodata.redist_gen.%s,\\\"aG\\\",@progbits,redist_gen.%s,comdat" name name;
      ".globl " ^ guard_sym; ".hidden " ^ guard_sym; guard_sym ^ ": .byte 0"; ".popsection" ]
  in
  prol "__asm__(%s);" (String.concat "\n        " (List.map (Printf.sprintf "\"%s\\n\"") directives));
  prol "#endif";
  prol "";
  line "%s" elf_host_only;
  line "// The symbol above; run() refers to it.";
  line "extern const char kProblemSymbol __asm__(\"%s\") __attribute__((visibility(\"hidden\")));" guard_sym;
  line "#endif";
  line "";
  value_type bd p;
  line "";
  line "// The mesh: axis sizes, the first axis most significant in the rank.";
  Cxx.const bd "int" "kMeshAxes" (Cxx.Int ((List.length p.env.axes)));
  Cxx.const bd ~note:(F.show_mesh p.env) "int" "kMeshSizes[kMeshAxes]" (Cxx.Ints (List.map (fun (a : F.axis_info) -> a.size) p.env.axes));
  Cxx.const bd "int" "kDevices" (Cxx.Int (ndev));
  line "";
  line "// The meshes, layouts, element type and plan, as digests that create_mesh";
  line "// agrees on over the ranks (ranks running another problem fail there, all";
  line "// alike, naming what differs and on which ranks) and run() agrees on again";
  line "// (one mesh may serve several headers' plans; ranks must run the same one).";
  Cxx.const bd "::redist::ProblemDigest" "kProblem" (Cxx.Expr ((Problem.digest_literal digest)));
  line "";
  line "// The array: rank, global shape, per-device element counts.";
  Cxx.const bd "int" "kRank" (Cxx.Int (rank));
  Cxx.const bd "::std::size_t" "kGlobalShape[kRank]" (Cxx.Ints (C.global_shape p.src));
  Cxx.const bd ~note:(F.show_ty p.env p.src) "::std::size_t" "kSrcElems" (Cxx.Int r.src_elems);
  Cxx.const bd ~note:(F.show_ty p.env p.tgt) "::std::size_t" "kTgtElems" (Cxx.Int r.tgt_elems);
  Cxx.const bd "::std::size_t" "kPeakElems" (Cxx.Int (r.peak));
  Cxx.const bd "::std::size_t" "kSrcBytes" (Cxx.Expr "kSrcElems * kElemBytes");
  Cxx.const bd "::std::size_t" "kTgtBytes" (Cxx.Expr "kTgtElems * kElemBytes");
  Cxx.const bd "::redist::Layout" "kSrcLayout" (Cxx.Expr ((layout_lit (C.local_shape base p.src) elem)));
  Cxx.const bd "::redist::Layout" "kTgtLayout" (Cxx.Expr ((layout_lit (C.local_shape base p.tgt) elem)));
  line "";
  line "// Workspace: [0, kPingBytes) and [kPingBytes, kPingBytes + kPongBytes) hold";
  line "// intermediate arrays, the rest is the collectives' scratch.";
  Cxx.const bd "::std::size_t" "kPingBytes" (Cxx.Int (ping_bytes));
  Cxx.const bd "::std::size_t" "kPongBytes" (Cxx.Int (pong_bytes));
  Cxx.const bd "::std::size_t" "kScratchBytes" (Cxx.Int (scratch_bytes));
  let formulas = List.filter_map (fun (c : C.call) -> Option.map (fun f -> (f, c.cl_scratch)) (scratch_formula elem c)) calls in
  if formulas <> [] then line "// The scratch the proofs lower each call with is the runtime's own formula:";
  List.iter (fun (f, n) -> line "static_assert(%s == %d, \"scratch formula\");" f n) formulas;
  Cxx.const bd "::std::size_t" "kWorkspaceBytes" (Cxx.Int ((C.workspace_bytes calls)));
  line "static_assert(kWorkspaceBytes == kPingBytes + kPongBytes + kScratchBytes, \"workspace layout\");";
  Cxx.const bd ~note:"lower_live_bytes" "::std::size_t" "kLiveBytes" (Cxx.Int ((Lazy.force r.live_bytes)));
  alloc_bytes_const bd p (Xreport.Collectives r);
  line "static_assert(kAllocBytes == kSrcBytes + kTgtBytes + kWorkspaceBytes, \"what the caller allocates\");";
  line "";
  (* ---- boxes ---- *)
  let box fn (t : C.ty) what =
    line "// The box of the global array that `rank` holds under the %s type %s:" what (F.show_ty p.env t);
    line "// offset[d] is its corner, extent[d] its size, in dimension d.  False if";
    line "// rank is not in 0..kDevices-1.";
    line "inline constexpr bool %s(int rank, ::std::size_t offset[kRank], ::std::size_t extent[kRank]) {" fn;
    line "  if (rank < 0 || rank >= kDevices) return false;";
    List.iteri
      (fun d dd ->
        line "  offset[%d] = %s;" d (offset_expr p.env dd);
        line "  extent[%d] = %d;" d (C.extent base dd))
      t;
    line "  return true;";
    line "}";
    line ""
  in
  box "src_box" p.src "source";
  box "tgt_box" p.tgt "target";
  (* ---- groups and tables ---- *)
  let groups = Report.communicating_groups calls in
  line "// Groups (stride, size) in rank space of the gathers and all-to-alls.";
  Cxx.const bd "int" "kGroupCount" (Cxx.Int ((List.length groups)));
  if groups <> [] then
    Cxx.const bd "::redist::Group" "kGroups[kGroupCount]"
      (Cxx.Expr (list_init (List.map (fun (st, sz) -> Printf.sprintf "{%d, %d}" st sz) groups)));
  line "";
  List.iteri
    (fun i (c : C.call) ->
      match c.cl_op with
      | Some (C.AllPermute _ as k) ->
          line "// Step %d, %s: rank r receives the array of rank kRecvFrom%d[r]." i (F.show_collective env k) i;
          line "inline constexpr int kRecvFrom%d[kDevices] = %s;" i (list_init (List.map string_of_int c.cl_recv_from))
      | _ -> ())
    calls;
  line "";
  (* ---- entry points ---- *)
  line "// Creates the mesh over `comm` (which must have kDevices ranks) and prepares";
  line "// the plan's groups.  Collective over comm; call once, before run().";
  (match backend with
   | Mpi ->
       line "inline ::redist::Status create_mesh(::MPI_Comm comm, ::redist::Mesh* out) {";
       line "  if (::redist::Status st = ::redist::Mesh::create(comm, kMeshSizes, kMeshAxes, kProblem, out); !st.ok()) return st;"
   | Nccl ->
       line "// The collectives are enqueued on `stream` (this rank's GPU, selected with";
       line "// cudaSetDevice before this call).";
       line "inline ::redist::Status create_mesh(::MPI_Comm comm, ::cudaStream_t stream, ::redist::nccl::Mesh* out) {";
       line "  if (::redist::Status st = ::redist::nccl::Mesh::create(comm, kMeshSizes, kMeshAxes, kProblem, stream, out); !st.ok()) return st;");
  if groups = [] then line "  return ::redist::Status();"
  else line "  return out->prepare(kGroups, kGroupCount);";
  line "}";
  line "";
  line "// Moves this rank's source box (src, kSrcLayout) to its target box (dst,";
  line "// kTgtLayout).  workspace: at least kWorkspaceBytes bytes.  Collective over";
  line "// the mesh: every rank calls it.  No allocation.  The buffer checks are agreed";
  line "// between the ranks (redist's check_run): a rank whose buffer is short makes";
  line "// every rank return an error, none is left waiting.";
  if backend = Nccl then begin
    line "// NCCL: src, dst and workspace are device memory; run only enqueues work on";
    line "// mesh.stream(): call mesh.synchronize() before reading dst.";
  end;
  line "inline ::redist::Status run(const %sMesh& mesh, const void* src, ::std::size_t src_bytes," ns;
  line "                          void* dst, ::std::size_t dst_bytes, void* workspace, ::std::size_t workspace_bytes) {";
  line "  if (::redist::Status st = %scheck_run(mesh, \"%s::run\", kProblem, kDevices, src, src_bytes, kSrcBytes, dst, dst_bytes, kTgtBytes," ns name;
  line "                                         workspace, workspace_bytes, kWorkspaceBytes); !st.ok())";
  line "    return st;";
  line "%s" elf_host_only;
  line "  __asm__ volatile(\"\" : : \"r\"(&kProblemSymbol));  // a reference the linker must resolve";
  line "#endif";
  line "  unsigned char* ws = static_cast<unsigned char*>(workspace);";
  line "  (void)ws;";
  let buf_expr (b : C.buffer) =
    match b with
    | C.BSrc -> ("src", "src_bytes")
    | C.BDst -> ("dst", "dst_bytes")
    | C.BPing -> ("ws", "kPingBytes")
    | C.BPong -> ("ws + kPingBytes", "kPongBytes")
  in
  let scratch = "ws + kPingBytes + kPongBytes, kScratchBytes" in
  List.iteri
    (fun i (c : C.call) ->
      let lay = layout_lit c.cl_shape elem in
      let src, srcb = buf_expr c.cl_in and dst, dstb = buf_expr c.cl_out in
      match c.cl_op with
      | None -> (
          line "  // No steps: the source type is the target type.";
          line "  (void)mesh;";
          match backend with
          | Mpi -> line "  ::std::memcpy(%s, %s, kSrcBytes);" dst src
          | Nccl ->
              line "  if (::cudaError_t e = ::cudaMemcpyAsync(%s, %s, kSrcBytes, ::cudaMemcpyDeviceToDevice, mesh.stream()); e != ::cudaSuccess)" dst src;
              line "    return ::redist::Status(::redist::Errc::backend_error, ::std::string(\"%s::run: cudaMemcpyAsync: \") + ::cudaGetErrorString(e));" name)
      | Some k ->
          line "  // Step %d: %s -> %s" i (F.show_collective env k) (F.show_ty env steps.(i).Report.after);
          let call =
            match k with
            | C.DynSlice (d, _) ->
                let st, sz = group_of c in
                Printf.sprintf "%sdyn_slice(mesh, ::redist::Group{%d, %d}, %s, %d, %s, %s, %s, %s)" ns st sz lay d src srcb dst dstb
            | C.AllGather d ->
                let st, sz = group_of c in
                Printf.sprintf "%sall_gather(mesh, ::redist::Group{%d, %d}, %s, %d, %s, %s, %s, %s, %s)" ns st sz lay d src srcb dst dstb scratch
            | C.AllToAll (a, t) ->
                let st, sz = group_of c in
                Printf.sprintf "%sall_to_all(mesh, ::redist::Group{%d, %d}, %s, %d, %d, %s, %s, %s, %s, %s)" ns st sz lay a t src srcb dst dstb scratch
            | C.AllPermute _ ->
                Printf.sprintf "%sall_permute(mesh, kRecvFrom%d, kDevices, %s, %s, %s, %s, %s)" ns i lay src srcb dst dstb
          in
          line "  if (::redist::Status st = %s; !st.ok()) return st;" call)
    calls;
  line "  return ::redist::Status();";
  line "}";
  line "";
  Cxx.const bd ~note:"the mesh is world ranks 0 .. kDevices - 1" "int" "kWorldSize" (Cxx.Expr "kDevices");
  List.iter (line "%s")
    (plan_interface ~backend
       ~members:[ Printf.sprintf "%sMesh mesh;" ns ]
       ~create:[ (match backend with Mpi -> "return create_mesh(world, &out->mesh);" | Nccl -> "return create_mesh(world, stream, &out->mesh);") ]
       ~source_bytes:[ "(void)plan;"; "return kSrcBytes;" ] ~target_bytes:[ "(void)plan;"; "return kTgtBytes;" ]
       ~run:[ "return run(plan.mesh, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);" ] ());
  Cxx.finish bd [ Cxx.Named "redist_gen"; Cxx.Inline (tag, "this problem and plan"); Cxx.Named name ]

(* An exchange plan: the meshes and layouts as data for redist::Exchange
   (or redist::nccl::Exchange), which computes on each rank only that rank's
   boxes and peers, so the header holds at most one rank list per mesh (no
   table over pairs of ranks).  [create_exchange] builds it once; [run]
   allocates nothing. *)
(* The Plan interface of a header whose plan is one MPI exchange object of
   type [exchange_type], which moves the local arrays alone (no workspace). *)
let exchange_plan_interface ~backend exchange_type =
  plan_interface ~backend ~members:[ exchange_type ^ " exchange;" ]
    ~create:[ "return create_exchange(world, &out->exchange);" ]
    ~source_bytes:[ "return plan.exchange.source_bytes();" ] ~target_bytes:[ "return plan.exchange.target_bytes();" ]
    ~run:[ "(void)workspace;"; "(void)workspace_bytes;"; "return plan.exchange.run(src, src_bytes, dst, dst_bytes);" ]
    ~split:
      ( [ "(void)workspace;"; "(void)workspace_bytes;"; "return plan.exchange.start(src, src_bytes, dst, dst_bytes);" ],
        [ "return plan.exchange.test(done);" ], [ "return plan.exchange.wait();" ] )
    ()

let exchange_header ?(command = Array.to_list Sys.argv) ~name ~backend (r : Xreport.t) ~guarantees =
  let p = r.problem in
  let bd = Cxx.builder () in
  let line fmt = Cxx.line bd fmt and pre fmt = Cxx.preamble bd fmt in
  standard_preamble bd ~command;
  pre "Problem: %s, %s -> %s, %s (%d bytes per element)." (Problem.show_meshes p) (F.show_ty p.env p.src)
    (F.show_ty p.tgt_env p.tgt) p.dtype.name p.elem_bytes;
  pre "Plan: one direct exchange (strategy %s); world ranks 0 .. %d take part." (Problem.strategy_name p.strategy)
    (r.world - 1);
  pre "Busiest rank receives %s (lower bound %d); largest source box %d, target box %d elements."
    (Report.plural r.recv_busiest "element") r.lb_max r.src_max r.tgt_max;
  pre "Live bytes per rank: %d (proven: lower_splan_live_bytes): over MPI a rank holds its source" r.live_bytes;
  (match backend with
   | Mpi -> pre "  and target boxes only; no workspace."
   | Nccl -> pre "  and target boxes only; over NCCL it also holds the staging workspace (kWorkspaceBytes).");
  proven bd guarantees;
  runtime_prologue bd p ~std:[ "cstddef"; "cstdint" ] (match backend with Mpi -> "exchange" | Nccl -> "nccl_exchange");
  value_type bd p;
  Cxx.const bd ~note:"the world communicator has at least this many ranks" "int" "kWorldSize" (Cxx.Int (r.world));
  Cxx.const bd ~note:"the largest source box" "::std::size_t" "kMaxSrcElems" (Cxx.Int (r.src_max));
  Cxx.const bd ~note:"the largest target box" "::std::size_t" "kMaxTgtElems" (Cxx.Int (r.tgt_max));
  Cxx.const bd ~note:"lower_splan_live_bytes" "::std::size_t" "kLiveBytes" (Cxx.Int (r.live_bytes));
  alloc_bytes_const bd p (Xreport.Exchange r);
  line "// The meshes, layouts, element type and plan, as digests that create_exchange";
  line "// agrees on over the world (ranks running another problem fail there, all alike).";
  Cxx.const bd "::redist::ProblemDigest" "kProblem" (Cxx.Expr ((Problem.digest_literal (exchange_digest r))));
  line "";
  let mesh_fn fn env ranks placement =
    let sizes = List.map (fun (a : F.axis_info) -> string_of_int a.size) env.F.axes in
    line "// %s" (Problem.show_placed env placement);
    line "inline ::redist::PlacedMesh %s() {" fn;
    line "  static constexpr int kAxisSizes[] = %s;" (list_init sizes);
    (match ranks with
     | first :: _ when ranks = C.seq first (List.length ranks) ->
         line "  return ::redist::PlacedMesh::contiguous(kAxisSizes, %d, %d);" (List.length sizes) first
     | _ ->
         line "  static constexpr int kRanks[] = %s;" (list_init (List.map string_of_int ranks));
         line "  ::redist::PlacedMesh mesh;";
         line "  mesh.naxes = %d;" (List.length sizes);
         line "  for (int a = 0; a < mesh.naxes; ++a) mesh.axis_size[a] = kAxisSizes[a];";
         line "  mesh.ranks.assign(kRanks, kRanks + %d);" (List.length ranks);
         line "  return mesh;");
    line "}";
    line ""
  in
  let layout_fn fn (ty : C.ty) =
    line "inline ::redist::BlockLayout %s() {" fn;
    line "  ::redist::BlockLayout layout;";
    line "  layout.ndim = %d;" (List.length ty);
    List.iteri
      (fun d (axes, n) ->
        line "  layout.extent[%d] = %d;" d n;
        line "  layout.sharding[%d].count = %d;" d (List.length axes);
        List.iteri (fun k a -> line "  layout.sharding[%d].axis[%d] = %d;" d k a) axes)
      ty;
    line "  return layout;";
    line "}";
    line ""
  in
  mesh_fn "source_mesh" p.env p.src_ranks p.src_placement;
  layout_fn "source_layout" p.src;
  mesh_fn "target_mesh" p.tgt_env p.tgt_ranks p.tgt_placement;
  layout_fn "target_layout" p.tgt;
  (match backend with
   | Mpi ->
       line "// Collective over `world`, once: every rank of the world calls it.";
       line "inline ::redist::Status create_exchange(MPI_Comm world, ::redist::Exchange* out) {";
       line "  return ::redist::Exchange::create(world, source_mesh(), source_layout(), target_mesh(), target_layout(),";
       line "                                    kElemBytes, kProblem, out);";
       line "}";
       line "";
       line "// Collective over the world.  A rank outside the source (target) mesh passes";
       line "// null and 0 for src (dst); the others their box's local array,";
       line "// ex.source_bytes() and ex.target_bytes() long.  Allocates nothing.";
       line "inline ::redist::Status run(::redist::Exchange& ex, const value_type* src, ::std::size_t src_bytes,";
       line "                            value_type* dst, ::std::size_t dst_bytes) {";
       line "  return ex.run(src, src_bytes, dst, dst_bytes);";
       line "}";
       line "";
       Cxx.const bd ~note:"the exchange runs on the local arrays alone" "::std::size_t" "kWorkspaceBytes" (Cxx.Int 0);
       List.iter (line "%s") (exchange_plan_interface ~backend "::redist::Exchange")
   | Nccl ->
       line "// The staging workspace (device memory) that run() needs on any rank: the";
       line "// most bytes one rank receives from and sends to other ranks (proven:";
       line "// nccl_workspace_bytes_exact; ex.workspace_bytes() is this rank's own need,";
       line "// at most this).";
       Cxx.const bd "::std::size_t" "kWorkspaceBytes"
         (Cxx.Int (C.nccl_workspace_bytes p.elem_bytes (Problem.source_layout p) (Problem.target_layout p)));
       line "";
       line "// Over an NCCL communicator of the world's ranks that the caller set up (its";
       line "// rank r is world rank r); collective, once; uses `stream` to agree.";
       line "inline ::redist::Status create_exchange(::ncclComm_t comm, ::cudaStream_t stream, ::redist::nccl::Exchange* out) {";
       line "  return ::redist::nccl::Exchange::create(comm, source_mesh(), source_layout(), target_mesh(), target_layout(),";
       line "                                          kElemBytes, kProblem, stream, out);";
       line "}";
       line "";
       line "// The same with NCCL bootstrapped over `world` with MPI; collective over `world`, once.";
       line "inline ::redist::Status create_exchange(MPI_Comm world, ::redist::nccl::Exchange* out) {";
       line "  return ::redist::nccl::Exchange::create(world, source_mesh(), source_layout(), target_mesh(), target_layout(),";
       line "                                          kElemBytes, kProblem, out);";
       line "}";
       line "";
       line "// Collective over the world; enqueues on `stream`, allocates nothing.  A rank";
       line "// outside the source (target) mesh passes null and 0 for src (dst); the others";
       line "// their box's local array in device memory, ex.source_bytes() and";
       line "// ex.target_bytes() long; workspace: kWorkspaceBytes of device memory.";
       line "inline ::redist::Status run(::redist::nccl::Exchange& ex, const value_type* src, ::std::size_t src_bytes,";
       line "                            value_type* dst, ::std::size_t dst_bytes, void* workspace,";
       line "                            ::std::size_t workspace_bytes, ::cudaStream_t stream) {";
       line "  return ex.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, stream);";
       line "}";
       line "";
       List.iter (line "%s")
         (plan_interface ~backend ~members:[ "::redist::nccl::Exchange exchange;"; "::cudaStream_t stream = nullptr;" ]
            ~create:[ "out->stream = stream;"; "return create_exchange(world, &out->exchange);" ]
            ~source_bytes:[ "return plan.exchange.source_bytes();" ] ~target_bytes:[ "return plan.exchange.target_bytes();" ]
            ~run:[ "return plan.exchange.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, plan.stream);" ] ()));
  Cxx.finish bd [ Cxx.Named "redist_gen"; Cxx.Inline (exchange_tag r, "this problem and plan"); Cxx.Named name ]

(* A hybrid (MPI): the header of each part, under the names [NAME_part1]
   and [NAME_part2], then [NAME]: constants and calls to the runtime's
   redist::Staged, which the C ABI runs too.  The intermediate's bytes are
   the extracted lowering's ([lower_splan]'s [Staged n]). *)
let nccl_no_hybrids = "hybrids not costed: gen --backend nccl emits no hybrids yet (MPI only)"

let hybrid_header ?(command = Array.to_list Sys.argv) ~name ~backend (h : Xreport.hybrid) ~guarantees =
  let f = Xreport.figures h in
  if backend = Nccl then F.bad "gen --backend nccl: a hybrid plan (a via line) is emitted for MPI only so far; without --plan the NCCL backend's choice leaves hybrids out";
  let p = h.whole in
  let part_name k = if String.ends_with ~suffix:"_" name then Printf.sprintf "%spart%d" name k else Printf.sprintf "%s_part%d" name k in
  let part k = function
    | Xreport.Collectives r -> (`Mesh, collectives_header ~command ~name:(part_name k) ~backend r ~guarantees)
    | Xreport.Exchange r -> (`Exchange, exchange_header ~command ~name:(part_name k) ~backend r ~guarantees)
    | Xreport.Hybrid _ -> F.bad "gen: a hybrid inside a hybrid (a plan file with two via lines) is not emitted"
  in
  let kind1, part1 = part 1 h.first and kind2, part2 = part 2 h.second in
  let bd = Cxx.builder () in
  let line fmt = Cxx.line bd fmt and pre fmt = Cxx.preamble bd fmt in
  let mid = (Xreport.problem h.first).tgt in
  standard_preamble bd ~command;
  pre "Problem: %s, %s -> %s, %s (%d bytes per element)." (Problem.show_meshes p) (F.show_ty p.env p.src)
    (F.show_ty p.tgt_env p.tgt) p.dtype.name p.elem_bytes;
  pre "Plan: a hybrid through the intermediate layout %s (plan-file syntax):" (F.show_ty p.tgt_env mid);
  List.iter (pre "  %s") (Xreport.step_lines (Xreport.Hybrid h));
  pre "The two parts follow as headers of their own (%s, %s); %s::run runs them in turn." (part_name 1)
    (part_name 2) name;
  pre "Busiest rank receives %s over both parts (lower bound %d); peak local size %d."
    (Report.plural f.h_recv_busiest "element") f.h_lb_max f.h_peak;
  pre "Live bytes per rank: %d (proven: lower_splan_live_bytes): each part's, with the user's" f.h_live_bytes;
  pre "  array that part does not touch on top.";
  pre "Workspace: %d bytes (program_workspace_exact): the intermediate, then the larger part's workspace."
    f.h_workspace_bytes;
  proven bd guarantees;
  Cxx.part bd part1;
  Cxx.part bd part2;
  let identity = String.concat "\n" [ Cxx.print part1; Cxx.print part2; name ] in
  Cxx.prologue bd "#include \"redist/staged.hpp\"";
  line "namespace first = ::redist_gen::%s;" (part_name 1);
  line "namespace second = ::redist_gen::%s;" (part_name 2);
  value_type bd p;
  Cxx.const bd ~note:"the world communicator has at least this many ranks" "int" "kWorldSize" (Cxx.Int (f.h_world));
  line "// The meshes, layouts, element type and plan, as digests that create() agrees on";
  line "// first, over the world (its parts then agree on their own).";
  Cxx.const bd "::redist::ProblemDigest" "kProblem"
    (Cxx.Expr (Problem.digest_literal (Problem.digest h.whole ~plan_lines:(Xreport.step_lines (Xreport.Hybrid h)))));
  let mid_bytes =
    match
      C.lower_splan p.elem_bytes (Problem.source_layout p) (Problem.target_layout p)
        (Xreport.splan (Xreport.Hybrid h))
    with
    | C.Staged (n, _, _) -> n
    | _ -> failwith "lower_splan lowered a hybrid to another kind of program"
  in
  Cxx.const bd ~note:"lower_splan's Staged n: the largest intermediate box" "::std::size_t" "kMidBytes" (Cxx.Int (mid_bytes));
  Cxx.const bd ~note:"program_workspace_bytes" "::std::size_t" "kWorkspaceBytes" (Cxx.Int (f.h_workspace_bytes));
  let part_ws kind ns = match kind with `Mesh -> ns ^ "::kWorkspaceBytes" | `Exchange -> "0" in
  line "static_assert(kWorkspaceBytes == kMidBytes + (%s > %s ? %s : %s), \"workspace layout\");"
    (part_ws kind1 "first") (part_ws kind2 "second") (part_ws kind1 "first") (part_ws kind2 "second");
  Cxx.const bd ~note:"splan_live_bytes" "::std::size_t" "kLiveBytes" (Cxx.Int (f.h_live_bytes));
  alloc_bytes_const bd p (Xreport.Hybrid h);
  line "";
  line "// The runtime's executor of a staged plan (redist/staged.hpp), with both parts.";
  line "using Plan = ::redist::Staged;";
  line "";
  let make_part kind ns =
    match kind with
    | `Mesh ->
        Printf.sprintf "::redist::MeshPart::make(%s::kDevices, %s::kSrcBytes, %s::kTgtBytes, &%s::create_mesh, &%s::run)"
          ns ns ns ns ns
    | `Exchange ->
        Printf.sprintf
          "::redist::ExchangePart::make(%s::source_mesh(), %s::source_layout(), %s::target_mesh(),\n      %s::target_layout(), %s::kElemBytes, %s::kProblem)"
          ns ns ns ns ns ns
  in
  line "// Collective over `world` (at least kWorldSize ranks), once.";
  line "inline ::redist::Status create(::MPI_Comm world, Plan* out) {";
  line "  if (::redist::Status st = ::redist::agree_problem(world, kProblem, \"%s::create\"); !st.ok()) return st;" name;
  line "  return ::redist::Staged::create(world, \"%s::create\", kMidBytes, kWorkspaceBytes," name;
  line "    %s," (make_part kind1 "first");
  line "    %s, out);" (make_part kind2 "second");
  line "}";
  line "";
  line "// Moves this rank's source box (src) to its target box (dst) through the";
  line "// intermediate in the workspace (at least kWorkspaceBytes, agreed between the";
  line "// ranks).  Collective over the world.  No allocation.";
  line "inline ::redist::Status run(Plan& plan, const void* src, ::std::size_t src_bytes, void* dst,";
  line "                            ::std::size_t dst_bytes, void* workspace, ::std::size_t workspace_bytes) {";
  line "  return plan.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, \"%s::run\");" name;
  line "}";
  line "";
  line "// This rank's source and destination bytes (0 where it holds no box).";
  line "inline ::std::size_t source_bytes(const Plan& plan) { return plan.source_bytes(); }";
  line "inline ::std::size_t target_bytes(const Plan& plan) { return plan.target_bytes(); }";
  line "";
  line "// Split phase: start() runs the first part whole and posts the second's messages;";
  line "// until test() says done or wait() returns, src, dst and the workspace belong to the plan.";
  line "inline ::redist::Status start(Plan& plan, const void* src, ::std::size_t src_bytes, void* dst,";
  line "                              ::std::size_t dst_bytes, void* workspace, ::std::size_t workspace_bytes) {";
  line "  return plan.start(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, \"%s::start\");" name;
  line "}";
  line "inline ::redist::Status test(Plan& plan, bool* done) { return plan.advance(false, done); }";
  line "inline ::redist::Status wait(Plan& plan) {";
  line "  bool done = false;";
  line "  return plan.advance(true, &done);";
  line "}";
  line "";
  Cxx.finish bd
    [ Cxx.Named "redist_gen"; Cxx.Inline ("h" ^ String.sub (Digest.to_hex (Digest.string identity)) 0 16, "this problem and plan");
      Cxx.Named name ]

(* The header of any plan without pending sums. *)
let plan_header ?command ~name ~backend ~guarantees = function
  | Xreport.Collectives r -> collectives_header ?command ~name ~backend r ~guarantees
  | Xreport.Exchange r -> exchange_header ?command ~name ~backend r ~guarantees
  | Xreport.Hybrid h -> hybrid_header ?command ~name ~backend h ~guarantees
