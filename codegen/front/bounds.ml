(* Limits checked at the boundary, before any value reaches the extracted
   core.  The core computes with OCaml's 63-bit [int] in place of Coq's
   [nat]; keeping every global extent, the product of the global extents and
   the mesh size below 2^50 leaves every intermediate value of the core's
   arithmetic (offsets, local sizes, products of at most two such values in
   the traffic formulas) far below [max_int] = 2^62 - 1. *)

let size_limit = 1 lsl 50

(* Reporting enumerates every rank (per-rank traffic, the generated code's
   tables), so the number of devices is also bounded by what can be listed
   in reasonable time and space. *)
let device_limit = 1 lsl 16

(* The C++ runtime handles local arrays of at most this many dimensions. *)
let max_rank_gen = 8

exception Overflow

(* Totals over ranks and steps can exceed the per-value bound; these fail
   instead of wrapping. *)
let add a b = if a > max_int - b then raise Overflow else a + b

let mul a b = if a <> 0 && b > max_int / a then raise Overflow else a * b

(* [a * b] in decimal, for [a >= 0] and a small [b >= 0] (an element size):
   byte totals are printed, never computed with, so they may pass 2^62. *)
let mul_decimal a b =
  match mul a b with
  | n -> string_of_int n
  | exception Overflow ->
      (* Schoolbook multiplication, least significant digit first. *)
      let digits = string_of_int a in
      let rec go k carry acc =
        if k >= 0 then
          let v = ((Char.code digits.[k] - Char.code '0') * b) + carry in
          go (k - 1) (v / 10) (Char.chr (Char.code '0' + (v mod 10)) :: acc)
        else if carry > 0 then go k (carry / 10) (Char.chr (Char.code '0' + (carry mod 10)) :: acc)
        else acc
      in
      String.of_seq (List.to_seq (go (String.length digits - 1) 0 []))

(* The extracted checker recurses once per step (not in tail position), so
   the length of a plan file is bounded well within the default stack. *)
let max_plan_steps = 100_000

(* Checking a plan reports every rank's traffic at every step, so a plan
   file's collectives times the mesh's devices is bounded too: 2^23 keeps a
   check within a few seconds (0.4 us a rank-step), while the planner's own
   plans stay far below it (a few steps per prime factor of the mesh size:
   at most 48 steps at 65,536 devices, where 128 are allowed). *)
let max_plan_rank_steps = 1 lsl 23

(* Plan files are read whole, so their size is bounded: 16 MiB holds far
   more than [max_plan_steps] collectives with comments. *)
let max_input_bytes = 16 lsl 20

(* Mesh axes and array dimensions: far beyond any real mesh or array, and
   small enough that the list-based front end and core stay fast. *)
let max_axes = 64
let max_dims = 64

(* Refine lines may at most double that. *)
let max_refined_axes = 2 * max_axes
