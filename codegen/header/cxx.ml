(* A generated header as data: the preamble (what the problem is, the plan,
   what is proven), the constants with their values, and the code that
   calls the runtime, each a value the printer writes once.  Tests and
   `redist run` read constants from the value, never from the text. *)

type value =
  | Int of int                (* a figure the extracted code computed *)
  | Ints of int list          (* as a brace list *)
  | Expr of string            (* a C++ expression over other constants *)

type item =
  | Comment of string list
  | Const of { ctype : string; name : string; value : value; note : string option }
  | Code of string list       (* a type, a function: its lines as they are *)
  | Blank

type t = {
  preamble : string list;     (* the comment lines at the top, without "// " *)
  includes : string list;     (* the lines between #pragma once and the namespaces *)
  namespaces : (string * string option) list;  (* outermost first; an inline one is marked by its note *)
  items : item list;
  parts : t list;             (* headers this one sequences (a hybrid's parts), printed first *)
}

let const ?note ctype name value = Const { ctype; name; value; note }
let size name ?note n = const ?note "::std::size_t" name (Int n)

let rec find_constant h name =
  let here =
    List.find_map (function Const c when c.name = name -> Some c.value | _ -> None) h.items
  in
  match here with Some v -> Some v | None -> List.find_map (fun part -> find_constant part name) h.parts

(* A constant's value as the extracted code computed it; [Not_found] names it. *)
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
  List.iter line h.includes;
  List.iter
    (fun (ns, note) ->
      match note with
      | Some n -> line (Printf.sprintf "inline namespace %s {  // %s" ns n)
      | None -> line (Printf.sprintf "namespace %s {" ns))
    h.namespaces;
  line "";
  List.iter
    (function
      | Comment ls -> List.iter (fun l -> line ("// " ^ l)) ls
      | Const { ctype; name; value; note } ->
          line
            (Printf.sprintf "inline constexpr %s %s = %s;%s" ctype name (show_value value)
               (match note with Some n -> "  // " ^ n | None -> ""))
      | Code ls -> List.iter line ls
      | Blank -> line "")
    h.items;
  List.iter
    (fun (ns, note) -> line (Printf.sprintf "}  // %s%s" (if note = None then "namespace " else "inline namespace ") ns))
    (List.rev h.namespaces)

let print h =
  let b = Buffer.create 8192 in
  print_into b h;
  Buffer.contents b
