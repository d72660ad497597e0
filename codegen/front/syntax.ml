(* Surface syntax of meshes, types and plan files, with the column of every
   part so that later errors can point at it.

   mesh   ::= '{' axis ':' INT (',' axis ':' INT)* '}'
   placed ::= mesh ['@' INT | '@' '[' INT (',' INT)* ']']
                                  contiguous from a world rank, or one
                                  world rank per device, row-major
   type   ::= [dtype] '[' dim (',' dim)* ']' [op '{' names '}']
                                  the last part: pending axes
   op     ::= 'sum' | 'prod' | 'max' | 'min' | 'avg'
   dim    ::= INT '{' names '}' INT        local size, axes, global size
            | '{' names '}' INT           local size inferred
            | cut cut* INT                composed cuts, outermost first
            | INT                         unsharded
   cut    ::= '{' names '}' ['%' INT]     a ceil-block cut, or with '%' B a
                                  cyclic one dealing blocks of B
   names  ::= [NAME (',' NAME)*]
   plan   ::= one item per line, '#' starts a comment:
              'refine' NAME '=' NAME ':' INT ('*' NAME ':' INT)+
            | 'dyn_slice' '(' INT ',' NAME ')'
            | 'all_gather' '(' INT ')'
            | 'all_to_all' '(' INT ',' INT ')'
            | 'all_permute' '(' type ')'
            | 'exchange'                  the whole plan: one direct exchange
            | 'reduce_scatter' '(' INT ',' NAME ')'   pending sums: before the collectives
            | 'all_reduce' '(' NAME ')'
            | 'add_pending' '(' NAME ')'             after the collectives

   NAME is a letter or '_' followed by letters, digits, '_' and '.'; dotted
   names are reserved for sub-axes.  INT is decimal and below 2^50. *)

type name = { name : string; ncol : int }

(* A cut of a dimension: its axes, and for a cyclic cut its block size
   with the column of the '%'. *)
type cut = { cut_axes : name list; cyclic : (int * int) option; ccol : int }

(* [axes]: the axes of a dimension of one ceil-block cut (today's layouts);
   [composed]: the cuts, outermost first, of any other sharded dimension
   (then [axes] is [None]). *)
type dim = { local : int option; axes : name list option; composed : cut list; global : int; dcol : int }

(* [pending]: the operation's word (its name and column) and the axes of
   [sum{...}], [max{...}], ..., if given. *)
type ty = { dtype : name option; dims : dim list; pending : (name * name list) option; tcol : int }

type mesh_axis = { axis : name; size : int }

type collective =
  | Slice of int * name
  | Gather of int
  | All_to_all of int * int
  | Permute of ty
  | Reduce_scatter of int * name
  | All_reduce of name
  | Add_pending of name

type item =
  | Refine of name * (name * int) list
  | Step of collective
  | Exchange
  | Via of ty  (* a hybrid: the lines above end at this type, the lines below start from it *)

(* Where a mesh's devices are in the world: [At k] on ranks k, k+1, ...;
   [Ranks] one world rank per device, each with its column. *)
type placement = At of int | Ranks of (int * int) list

type placed_mesh = { mesh_axes : mesh_axis list; placement : placement option; pcol : int }

(* Column (from 1) and what was expected. *)
exception Parse_error of int * string

type cursor = { s : string; mutable i : int }

let is_space ch = ch = ' ' || ch = '\t' || ch = '\r' || ch = '\n'
let is_digit ch = ch >= '0' && ch <= '9'
let is_name_start ch = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch = '_'
let is_name_char ch = is_name_start ch || is_digit ch || ch = '.'

let skip_ws c = while c.i < String.length c.s && is_space c.s.[c.i] do c.i <- c.i + 1 done

let peek c =
  skip_ws c;
  if c.i < String.length c.s then Some c.s.[c.i] else None

let describe_here c =
  match peek c with
  | None -> "end of input"
  | Some ch when Char.code ch < 32 || Char.code ch > 126 ->
      Printf.sprintf "byte 0x%02x" (Char.code ch)
  | Some ch -> Printf.sprintf "'%c'" ch

let fail c expected =
  let found = describe_here c in
  raise (Parse_error (c.i + 1, Printf.sprintf "expected %s, found %s" expected found))

let expect c ch what =
  if peek c = Some ch then c.i <- c.i + 1 else fail c what

let accept c ch = if peek c = Some ch then (c.i <- c.i + 1; true) else false

let parse_int c what =
  match peek c with
  | Some ch when is_digit ch ->
      let start = c.i in
      let v = ref 0 in
      while c.i < String.length c.s && is_digit c.s.[c.i] do
        v := (!v * 10) + Char.code c.s.[c.i] - Char.code '0';
        if !v >= Bounds.size_limit then
          raise (Parse_error (start + 1, Printf.sprintf "%s is too large (the limit is 2^50 - 1)" what));
        c.i <- c.i + 1
      done;
      !v
  | _ -> fail c what

let parse_name c what =
  match peek c with
  | Some ch when is_name_start ch ->
      let start = c.i in
      while c.i < String.length c.s && is_name_char c.s.[c.i] do c.i <- c.i + 1 done;
      let n = String.sub c.s start (c.i - start) in
      if n.[String.length n - 1] = '.' then
        raise (Parse_error (c.i, "a name may not end with '.'"));
      { name = n; ncol = start + 1 }
  | _ -> fail c what

let parse_names c =
  expect c '{' "'{'";
  if accept c '}' then []
  else begin
    let rec more acc =
      let n = parse_name c "an axis name" in
      if accept c ',' then more (n :: acc)
      else (expect c '}' "',' or '}' after an axis name"; List.rev (n :: acc))
    in
    more []
  end

(* The cuts from a '{' to the global size. *)
let parse_cuts c =
  let rec more acc =
    skip_ws c;
    let ccol = c.i + 1 in
    let cut_axes = parse_names c in
    let cyclic =
      skip_ws c;
      let pcol = c.i + 1 in
      if accept c '%' then Some (parse_int c "the block size after '%'", pcol) else None
    in
    let acc = { cut_axes; cyclic; ccol } :: acc in
    if peek c = Some '{' then more acc else List.rev acc
  in
  let cuts = more [] in
  (cuts, parse_int c "the global size after the cuts")

let dim_of_cuts ~local ~dcol (cuts, global) =
  match cuts with
  | [ { cut_axes; cyclic = None; _ } ] -> { local; axes = Some cut_axes; composed = []; global; dcol }
  | _ -> { local; axes = None; composed = cuts; global; dcol }

let parse_dim c =
  skip_ws c;
  let dcol = c.i + 1 in
  match peek c with
  | Some '{' -> dim_of_cuts ~local:None ~dcol (parse_cuts c)
  | Some ch when is_digit ch ->
      let n = parse_int c "a size" in
      if peek c = Some '{' then dim_of_cuts ~local:(Some n) ~dcol (parse_cuts c)
      else { local = None; axes = None; composed = []; global = n; dcol }
  | _ -> fail c "a dimension (N, n{axes}N, {axes}N, {x}{y}N or {axes}%B N)"

let parse_ty_at c =
  skip_ws c;
  let tcol = c.i + 1 in
  let dtype =
    match peek c with
    | Some ch when is_name_start ch -> Some (parse_name c "a dtype")
    | _ -> None
  in
  expect c '[' (if dtype = None then "a type such as [16{x}32, 64]" else "'[' after the dtype");
  let dims =
    if accept c ']' then []
    else begin
      let rec more acc =
        let d = parse_dim c in
        if accept c ',' then more (d :: acc)
        else (expect c ']' "',' or ']' after a dimension"; List.rev (d :: acc))
      in
      more []
    end
  in
  let pending =
    match peek c with
    | Some ch when is_name_start ch ->
        let word = parse_name c "an operation (sum, prod, max, min, avg)" in
        if Dtype.op_of_name word.name = None then
          raise (Parse_error (word.ncol,
            Printf.sprintf "expected an operation (%s) with its axes, such as sum{y}, or the end of the type, found %S"
              Dtype.op_names word.name));
        Some (word, parse_names c)
    | _ -> None
  in
  { dtype; dims; pending; tcol }

let at_end c = if peek c <> None then fail c "end of input"

let whole f s =
  let c = { s; i = 0 } in
  let v = f c in
  at_end c;
  v

let parse_mesh_at c =
  expect c '{' "'{' to start a mesh such as {x:2, y:4}";
  if accept c '}' then []
  else begin
    let rec more acc =
      let axis = parse_name c "an axis name" in
      expect c ':' "':' after the axis name";
      let size = parse_int c "the axis size" in
      let acc = { axis; size } :: acc in
      if accept c ',' then more acc
      else (expect c '}' "',' or '}' after an axis size"; List.rev acc)
    in
    more []
  end

let parse_placed_at c =
  skip_ws c;
  let mesh_axes = parse_mesh_at c in
  skip_ws c;
  let pcol = c.i + 1 in
  let placement =
    if not (accept c '@') then None
    else if accept c '[' then begin
      let rank () = skip_ws c; let col = c.i + 1 in (parse_int c "a world rank", col) in
      let rec more acc =
        let acc = rank () :: acc in
        if accept c ',' then more acc else (expect c ']' "',' or ']' after a world rank"; List.rev acc)
      in
      Some (Ranks (more []))
    end
    else Some (At (parse_int c "a first world rank or a rank list [r0, r1, ...] after '@'"))
  in
  { mesh_axes; placement; pcol }

let mesh s = whole parse_mesh_at s
let placed_mesh s = whole parse_placed_at s
let ty s = whole parse_ty_at s

let parse_collective c =
  let op = parse_name c "a collective (dyn_slice, all_gather, all_to_all, all_permute, reduce_scatter, all_reduce, add_pending), refine or exchange" in
  let open_paren () = expect c '(' (Printf.sprintf "'(' after %s" op.name) in
  let close_paren () = expect c ')' (Printf.sprintf "')' to close %s" op.name) in
  match op.name with
  | "dyn_slice" ->
      open_paren ();
      let d = parse_int c "a dimension number" in
      expect c ',' "',' after the dimension";
      let x = parse_name c "an axis name" in
      close_paren ();
      Slice (d, x)
  | "all_gather" ->
      open_paren ();
      let d = parse_int c "a dimension number" in
      close_paren ();
      Gather d
  | "all_to_all" ->
      open_paren ();
      let s = parse_int c "the source dimension" in
      expect c ',' "',' after the source dimension";
      let t = parse_int c "the target dimension" in
      close_paren ();
      All_to_all (s, t)
  | "all_permute" ->
      open_paren ();
      let t = parse_ty_at c in
      close_paren ();
      Permute t
  | "reduce_scatter" ->
      open_paren ();
      let d = parse_int c "a dimension number" in
      expect c ',' "',' after the dimension";
      let x = parse_name c "an axis name" in
      close_paren ();
      Reduce_scatter (d, x)
  | ("all_reduce" | "add_pending") as op_name ->
      open_paren ();
      let x = parse_name c "an axis name" in
      close_paren ();
      if op_name = "all_reduce" then All_reduce x else Add_pending x
  | other ->
      raise (Parse_error (op.ncol,
        Printf.sprintf "unknown collective %S (expected dyn_slice, all_gather, all_to_all, all_permute, reduce_scatter, all_reduce, add_pending, refine, exchange or via)" other))

let parse_refine c =
  let axis = parse_name c "the axis to refine" in
  expect c '=' "'=' after the axis to refine";
  let part () =
    let n = parse_name c "a sub-axis name" in
    expect c ':' "':' after the sub-axis name";
    let sz = parse_int c "the sub-axis size" in
    (n, sz)
  in
  let first = part () in
  expect c '*' "'*' (a refinement has at least two sub-axes)";
  let rec more acc =
    let acc = part () :: acc in
    if accept c '*' then more acc else List.rev acc
  in
  Refine (axis, first :: more [])

(* A line without its comment: [None] if blank. *)
let item_of_line s =
  let s = match String.index_opt s '#' with Some k -> String.sub s 0 k | None -> s in
  let c = { s; i = 0 } in
  if peek c = None then None
  else begin
    let save = c.i in
    let keyword =
      match peek c with
      | Some ch when is_name_start ch -> (parse_name c "").name
      | _ -> ""
    in
    let it =
      match keyword with
      | "refine" -> parse_refine c
      | "exchange" -> Exchange
      | "via" -> Via (parse_ty_at c)
      | _ -> c.i <- save; Step (parse_collective c)
    in
    at_end c;
    Some it
  end

(* Line (from 1), column (from 1) and what was expected. *)
exception Plan_parse_error of int * int * string

(* The items of a plan file with their line numbers.  A loop over the
   text, not a list of its lines: a file of millions of blank lines costs
   neither stack nor a list as long as the file. *)
let plan_lines text =
  let len = String.length text in
  let rec go items lineno start =
    if start > len then List.rev items
    else begin
      let stop = match String.index_from_opt text start '\n' with Some k -> k | None -> len in
      let items =
        match item_of_line (String.sub text start (stop - start)) with
        | None -> items
        | Some it -> (lineno, it) :: items
        | exception Parse_error (col, msg) -> raise (Plan_parse_error (lineno, col, msg))
      in
      go items (lineno + 1) (stop + 1)
    end
  in
  go [] 1 0
