(* User text inside an error message: quoted, and cut to a bounded excerpt
   so that a 130,000-character name does not become a 130,000-character
   line. *)

let max_chars = 40

let quote s =
  let n = String.length s in
  if n <= max_chars then Printf.sprintf "%S" s
  else Printf.sprintf "%S... (%d characters)" (String.sub s 0 max_chars) n
