(* User text inside an error message: quoted, and cut to a bounded excerpt
   so that a 130,000-character name does not become a 130,000-character
   line. *)

let max_chars = 40

let quote s =
  let n = String.length s in
  if n <= max_chars then Printf.sprintf "%S" s
  else Printf.sprintf "%S... (%d characters)" (String.sub s 0 max_chars) n

(* Every error line passes through here: a word (a run without spaces)
   longer than [max_word] can only be echoed input, and is cut to an
   excerpt, so no input makes an error line long. *)
let max_word = 100

let shorten_words line =
  let cut w =
    if String.length w <= max_word then w
    else Printf.sprintf "%s... (%d characters)" (String.sub w 0 max_chars) (String.length w)
  in
  String.concat " " (List.map cut (String.split_on_char ' ' line))
