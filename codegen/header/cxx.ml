(* A generated header as data: the preamble (who wrote it, for which
   problem, the plan, what is proven), the lines before its namespaces, the
   namespaces, and its items: constants with the values the extracted code
   computed, and code that calls the runtime.  [print] writes every kind of
   header; tests and `redist run` read constants from the value
   ([int_constant]), never from the text. *)

type value =
  | Int of int                (* a figure the extracted code computed *)
  | Ints of int list          (* a brace list of them *)
  | Expr of string            (* a C++ expression, over other constants *)

type item =
  | Const of { ctype : string; name : string; value : value; note : string option }
  | Code of string            (* one line of a type, a function, a comment *)

type namespace = Named of string | Inline of string * string  (* name, and what it stands for *)

type t = {
  preamble : string list;     (* the comment at the top, one line each, without "// " *)
  parts : t list;             (* headers this one sequences (a hybrid's parts), printed after its preamble *)
  prologue : string list;     (* includes and the like, before the namespaces *)
  namespaces : namespace list;  (* outermost first *)
  items : item list;
}

let rec find_constant h name =
  match List.find_map (function Const c when c.name = name -> Some c.value | Const _ | Code _ -> None) h.items with
  | Some v -> Some v
  | None -> List.find_map (fun part -> find_constant part name) h.parts

(* A constant's value, as the extracted code computed it. *)
let int_constant h name =
  match find_constant h name with
  | Some (Int n) -> n
  | Some (Ints _ | Expr _) | None -> invalid_arg ("Cxx.int_constant: no integer constant " ^ name)

let show_value = function
  | Int n -> string_of_int n
  | Ints l -> "{" ^ String.concat ", " (List.map string_of_int l) ^ "}"
  | Expr e -> e

let rec print_into b h =
  let line s = Buffer.add_string b s; Buffer.add_char b '\n' in
  List.iter (fun l -> line (if l = "" then "//" else "// " ^ l)) h.preamble;
  line "#pragma once";
  line "";
  List.iter (fun part -> print_into b part; line "") h.parts;
  List.iter line h.prologue;
  List.iter
    (function
      | Named ns -> line (Printf.sprintf "namespace %s {" ns)
      | Inline (ns, what) -> line (Printf.sprintf "inline namespace %s {  // %s" ns what))
    h.namespaces;
  line "";
  List.iter
    (function
      | Const { ctype; name; value; note } ->
          line
            (Printf.sprintf "inline constexpr %s %s = %s;%s" ctype name (show_value value)
               (match note with Some n -> "  // " ^ n | None -> ""))
      | Code l -> line l)
    h.items;
  List.iter
    (function
      | Named ns -> line ("}  // namespace " ^ ns)
      | Inline (ns, _) -> line ("}  // inline namespace " ^ ns))
    (List.rev h.namespaces)

let print h =
  let b = Buffer.create 8192 in
  print_into b h;
  Buffer.contents b

(* Building one: the printers add lines in order. *)
type builder = {
  mutable pre : string list;
  mutable prol : string list;
  mutable items_rev : item list;
  mutable parts_rev : t list;
}

let builder () = { pre = []; prol = []; items_rev = []; parts_rev = [] }
let preamble bd fmt = Printf.ksprintf (fun s -> bd.pre <- s :: bd.pre) fmt
let prologue bd fmt = Printf.ksprintf (fun s -> bd.prol <- s :: bd.prol) fmt
let line bd fmt = Printf.ksprintf (fun s -> bd.items_rev <- Code s :: bd.items_rev) fmt
let const bd ?note ctype name value = bd.items_rev <- Const { ctype; name; value; note } :: bd.items_rev
let part bd h = bd.parts_rev <- h :: bd.parts_rev

let finish bd namespaces =
  { preamble = List.rev bd.pre; parts = List.rev bd.parts_rev; prologue = List.rev bd.prol; namespaces;
    items = List.rev bd.items_rev }
