(** * The direct exchange over holdings (Part 3 of the model).

    A holding says, per world rank, the shape of its local array ([None]:
    the rank holds nothing), which global indices it holds, and the local
    index of a held global index and back.  Its laws ([holding_laws]) are
    the bijection between the held indices and the positions of the local
    array.  Part 2's boxes ([layout_holding]) and composed cuts
    ([clayout_holding]) are holdings.

    The exchange's data movement ([hexchange_wire]) is Part 2's
    [exchange_wire] read over holdings: target rank [r] takes the element
    at global index [i] of its local position [l] from the rank [h r i], at
    that rank's local index of [i].

    - [hexchange_sound]: for any holder choice that returns holders, every
      rank ends with exactly its target holding's elements.
    - [hexchange_recv_exact], [hmissing_spec]: when the choice keeps what a
      rank holds, each rank receives exactly the indices its target holds
      and its source does not, each once.
    - [exchange_wire_holdings], [exchange_sound_of_holdings],
      [exchange_recv_exact_of_holdings]: Part 2's exchange is the exchange
      over its boxes as holdings, and its two theorems follow.
    - [cuts_holding_laws], [cuts_exchange_sound], [cuts_exchange_recv_exact]:
      the same for any two layouts of composed cuts on placed meshes.
    - [one_cut_holding], [one_cut_exchange_wire]: a layout of one ceil-block
      cut per dimension is Part 2's layout as a holding, rank by rank, and
      the two exchanges move the same data. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Semanticsproof Trafficproof Layout Layoutproof Exchange Exchangeproof.
From Redist Require Import Cuts Cutsproof.

Record holding : Type := {
  hd_shape : nat -> option (list nat);
  hd_has : nat -> list nat -> bool;
  hd_local : nat -> list nat -> list nat;
  hd_global : nat -> list nat -> list nat }.

(** The global index of a local position is held and maps back to it; a
    held index has a local position, which maps back to it. *)
Definition holding_laws (H : holding) : Prop :=
  (forall r s l, hd_shape H r = Some s -> in_box s l ->
     hd_has H r (hd_global H r l) = true /\ hd_local H r (hd_global H r l) = l)
  /\ (forall r i, hd_has H r i = true ->
     exists s, hd_shape H r = Some s /\ in_box s (hd_local H r i) /\ hd_global H r (hd_local H r i) = i).

(** Every rank with a local array holds its elements of [g]. *)
Definition hd_holds {A} (H : holding) (g : list nat -> A) (st : state A) : Prop :=
  forall r s, hd_shape H r = Some s -> forall l, in_box s l -> st r l = g (hd_global H r l).

Definition hexchange_wire (S T : holding) (h : holder_choice) : wire_map :=
  fun r l =>
    match hd_shape T r with
    | Some _ => let i := hd_global T r l in let s := h r i in (s, hd_local S s i)
    | None => (r, l)
    end.

Definition hexchange_received (S T : holding) (h : holder_choice) (r : nat) : nat :=
  wire_received (hexchange_wire S T h) (hd_shape T) r.

(** The indices rank [r]'s target holds and its source does not. *)
Definition hmissing (S T : holding) (r : nat) : list (list nat) :=
  match hd_shape T r with
  | Some s => filter (fun i => negb (hd_has S r i)) (map (hd_global T r) (box_indices s))
  | None => []
  end.

Definition hreturns_holders (S T : holding) (h : holder_choice) : Prop :=
  forall r s l, hd_shape T r = Some s -> in_box s l ->
  hd_has S (h r (hd_global T r l)) (hd_global T r l) = true.

Definition hpicks_self (S : holding) (h : holder_choice) : Prop :=
  forall r i, hd_has S r i = true -> h r i = r.

Theorem hexchange_sound : forall S T h A (g : list nat -> A) (st : state A),
  holding_laws S -> hreturns_holders S T h -> hd_holds S g st ->
  hd_holds T g (run_wire (hexchange_wire S T h) st).
Proof.
  intros S T h A g st [_ HS] Hh Hst r s Hs l Hl.
  unfold run_wire, hexchange_wire. rewrite Hs. cbn [fst snd].
  destruct (HS _ _ (Hh r s l Hs Hl)) as (ss & Hss & H1 & H2).
  rewrite (Hst _ ss Hss _ H1), H2. reflexivity.
Qed.

Theorem hexchange_recv_exact : forall S T h r,
  hreturns_holders S T h -> hpicks_self S h ->
  hexchange_received S T h r = length (hmissing S T r).
Proof.
  intros S T h r Hh Hself.
  unfold hexchange_received, wire_received, positions, hmissing.
  destruct (hd_shape T r) as [s|] eqn:Hs; [| reflexivity].
  rewrite length_filter_map. f_equal. apply filter_ext_in. intros l Hl.
  apply in_box_indices in Hl. unfold hexchange_wire. rewrite Hs. cbn [fst]. f_equal.
  destruct (hd_has S r (hd_global T r l)) eqn:E.
  - rewrite (Hself r _ E). apply Nat.eqb_refl.
  - apply Nat.eqb_neq. intros E'. pose proof (Hh r s l Hs Hl) as Hi. rewrite E' in Hi. congruence.
Qed.

(** [hmissing] lists each index the target holds and the source does not, once. *)
Theorem hmissing_spec : forall S T r, holding_laws T ->
  NoDup (hmissing S T r)
  /\ (forall i, In i (hmissing S T r) <-> hd_has T r i = true /\ hd_has S r i = false).
Proof.
  intros S T r [HT1 HT2]. unfold hmissing. split.
  - destruct (hd_shape T r) as [s|] eqn:Hs; [| constructor]. apply NoDup_filter.
    apply NoDup_map_in; [| apply NoDup_box_indices]. intros x y Hx Hy E.
    apply in_box_indices in Hx, Hy.
    rewrite <- (proj2 (HT1 r s x Hs Hx)), <- (proj2 (HT1 r s y Hs Hy)), E. reflexivity.
  - intros i. destruct (hd_shape T r) as [s|] eqn:Hs.
    + rewrite filter_In, in_map_iff, negb_true_iff. split.
      * intros [(l & <- & Hl) HS]. apply in_box_indices in Hl. split; [apply (HT1 r s l Hs Hl) | exact HS].
      * intros [HTi HS]. split; [| exact HS]. destruct (HT2 r i HTi) as (s' & Hs' & H1 & H2).
        rewrite Hs in Hs'. injection Hs' as <-. exists (hd_local T r i).
        split; [exact H2 | apply in_box_indices; exact H1].
    + split; [intros [] |]. intros [HTi _]. destruct (HT2 r i HTi) as (s' & Hs' & _). congruence.
Qed.

(** ** Part 2's boxes as holdings *)

Definition box_or_self (ob : option box) (f : box -> list nat -> list nat) (x : list nat) : list nat :=
  match ob with Some b => f b x | None => x end.

Definition layout_holding (L : layout) : holding :=
  {| hd_shape := pl_shapes L;
     hd_has := fun w => has_opt (pl_box L w);
     hd_local := fun w => box_or_self (pl_box L w) box_local;
     hd_global := fun w => box_or_self (pl_box L w) box_global |}.

Lemma layout_holding_laws : forall L, holding_laws (layout_holding L).
Proof.
  intros L. split.
  - intros r s l Hs Hl. simpl in *. unfold pl_shapes in Hs.
    destruct (pl_box L r) as [b|]; [| discriminate]. injection Hs as <-. simpl.
    split; [apply box_global_has | apply box_local_global]; exact Hl.
  - intros r i Hi. simpl in *. unfold pl_shapes.
    destruct (pl_box L r) as [b|]; [| discriminate]. exists (box_shape b). split; [reflexivity |].
    apply box_has_local. exact Hi.
Qed.

Lemma pl_holds_holding : forall L A (g : list nat -> A) st,
  pl_holds L g st <-> hd_holds (layout_holding L) g st.
Proof.
  intros L A g st. unfold pl_holds, hd_holds. simpl. unfold pl_shapes. split.
  - intros H r s Hs l Hl. destruct (pl_box L r) as [b|] eqn:Hb; [| discriminate].
    injection Hs as <-. simpl. apply H; assumption.
  - intros H r b Hb l Hl. pose proof (H r (box_shape b)) as H'. rewrite Hb in H'. apply H'; [reflexivity | exact Hl].
Qed.

(** Part 2's exchange is the exchange over its boxes as holdings. *)
Theorem exchange_wire_holdings : forall S T h r l,
  exchange_wire S T h r l = hexchange_wire (layout_holding S) (layout_holding T) h r l.
Proof.
  intros S T h r l. unfold exchange_wire, hexchange_wire. simpl. unfold pl_shapes.
  destruct (pl_box T r); reflexivity.
Qed.

Corollary exchange_sound_of_holdings : forall S T h A (g : list nat -> A) (st : state A),
  returns_holders S T h -> pl_holds S g st -> pl_holds T g (exchange S T h st).
Proof.
  intros S T h A g st Hh Hst.
  assert (Hx : hd_holds (layout_holding T) g
                 (run_wire (hexchange_wire (layout_holding S) (layout_holding T) h) st)).
  { apply hexchange_sound; [apply layout_holding_laws | | apply pl_holds_holding; exact Hst].
    intros r s l Hs Hl. simpl in *. unfold pl_shapes in Hs.
    destruct (pl_box T r) as [b|] eqn:Hb; [| discriminate]. injection Hs as <-. simpl.
    apply (Hh r b); [exact Hb | apply box_global_has; exact Hl]. }
  apply pl_holds_holding in Hx. intros r b Hb l Hl. specialize (Hx r b Hb l Hl).
  unfold exchange, run_wire in *. rewrite exchange_wire_holdings. exact Hx.
Qed.

Lemma missing_holdings : forall S T r, missing S T r = hmissing (layout_holding S) (layout_holding T) r.
Proof.
  intros S T r. unfold missing, hmissing. simpl. unfold pl_shapes. destruct (pl_box T r); reflexivity.
Qed.

Corollary exchange_recv_exact_of_holdings : forall S T h r,
  returns_holders S T h -> picks_self S h ->
  exchange_received S T h r = length (missing S T r).
Proof.
  intros S T h r Hh Hself. rewrite missing_holdings, <- (hexchange_recv_exact _ _ h).
  - unfold exchange_received, hexchange_received, wire_received. simpl.
    f_equal. apply filter_ext. intros l. rewrite exchange_wire_holdings. reflexivity.
  - intros r' s l Hs Hl. simpl in *. unfold pl_shapes in Hs.
    destruct (pl_box T r') as [b|] eqn:Hb; [| discriminate]. injection Hs as <-. simpl.
    apply (Hh r' b); [exact Hb | apply box_global_has; exact Hl].
  - exact Hself.
Qed.

(** ** Composed cuts as holdings *)

Definition device_or_self (L : clayout) (w : nat) (f : device -> list nat -> list nat) (x : list nat) : list nat :=
  match cl_device L w with Some c => f c x | None => x end.

Definition clayout_holding (L : clayout) : holding :=
  {| hd_shape := fun w => option_map (c_shape (cl_m L) (cl_ty L)) (cl_device L w);
     hd_has := fun w i => match cl_device L w with Some c => c_has (cl_m L) (cl_ty L) c i | None => false end;
     hd_local := fun w => device_or_self L w (c_local (cl_m L) (cl_ty L));
     hd_global := fun w => device_or_self L w (c_global (cl_m L) (cl_ty L)) |}.

Lemma cl_device_in : forall L w c, clayout_wf L = true -> cl_device L w = Some c ->
  cty_chunks_ok (cl_m L) (cl_ty L) c.
Proof.
  intros L w c HL Hc. unfold clayout_wf, pmesh_wf in HL.
  rewrite !andb_true_iff, Nat.eqb_eq in HL. destruct HL as [[[Hm Hlen] _] Ht].
  unfold cl_device in Hc. destruct (index_of w (pm_ranks (cl_mesh L))) as [k|] eqn:Hk; [| discriminate].
  injection Hc as <-. apply index_of_Some in Hk. apply cty_wf_chunks_ok; [exact Hm | exact Ht |].
  apply device_of_rank_in; [exact Hm | unfold cl_m; lia].
Qed.

Theorem cuts_holding_laws : forall L, clayout_wf L = true -> holding_laws (clayout_holding L).
Proof.
  intros L HL. split.
  - intros r s l Hs Hl. simpl in *. unfold device_or_self.
    destruct (cl_device L r) as [c|] eqn:Hc; [| discriminate]. injection Hs as <-.
    apply c_global_has; [eapply cl_device_in; eassumption | exact Hl].
  - intros r i Hi. simpl in *. unfold device_or_self.
    destruct (cl_device L r) as [c|] eqn:Hc; [| discriminate].
    exists (c_shape (cl_m L) (cl_ty L) c). split; [reflexivity |].
    apply c_local_of_has; [eapply cl_device_in; eassumption | exact Hi].
Qed.

Theorem cuts_exchange_sound : forall S T h A (g : list nat -> A) (st : state A),
  clayout_wf S = true ->
  hreturns_holders (clayout_holding S) (clayout_holding T) h ->
  hd_holds (clayout_holding S) g st ->
  hd_holds (clayout_holding T) g (run_wire (hexchange_wire (clayout_holding S) (clayout_holding T) h) st).
Proof. intros. apply hexchange_sound; [apply cuts_holding_laws |..]; assumption. Qed.

Theorem cuts_exchange_recv_exact : forall S T h r,
  clayout_wf T = true ->
  hreturns_holders (clayout_holding S) (clayout_holding T) h -> hpicks_self (clayout_holding S) h ->
  hexchange_received (clayout_holding S) (clayout_holding T) h r
  = length (hmissing (clayout_holding S) (clayout_holding T) r)
  /\ NoDup (hmissing (clayout_holding S) (clayout_holding T) r)
  /\ (forall i, In i (hmissing (clayout_holding S) (clayout_holding T) r) <->
      hd_has (clayout_holding T) r i = true /\ hd_has (clayout_holding S) r i = false).
Proof.
  intros S T h r HT Hh Hself. split; [apply hexchange_recv_exact; assumption |].
  apply hmissing_spec, cuts_holding_laws, HT.
Qed.

(** ** A layout of one ceil-block cut per dimension is Part 2's layout *)

Theorem one_cut_holding : forall L w, layout_wf L = true ->
  hd_shape (clayout_holding (clayout_of_layout L)) w = hd_shape (layout_holding L) w
  /\ (forall i, hd_has (clayout_holding (clayout_of_layout L)) w i = hd_has (layout_holding L) w i)
  /\ (forall i, hd_local (clayout_holding (clayout_of_layout L)) w i = hd_local (layout_holding L) w i)
  /\ (forall l, hd_global (clayout_holding (clayout_of_layout L)) w l = hd_global (layout_holding L) w l).
Proof.
  intros L w HL. unfold layout_wf, pmesh_wf in HL. rewrite !andb_true_iff in HL.
  destruct HL as [[[Hm _] _] Ht]. apply lty_wf_iff in Ht. destruct Ht as [Hax _].
  simpl. unfold device_or_self, cl_device, pl_shapes, pl_box. simpl.
  destruct (index_of w (pm_ranks (ly_mesh L))) as [k|]; [| repeat split; reflexivity].
  simpl. unfold cl_m. simpl. fold (ly_m L).
  destruct (one_cut_agrees (ly_m L) (ly_ty L) (device_of_rank (ly_m L) k)) as (H1 & H2 & H3 & H4).
  - intros d Hd. apply shards_pos; [exact Hm |]. intros x Hx. apply Hax. eapply In_ty_axes; eassumption.
  - rewrite H1. repeat split; assumption.
Qed.

(** The exchange over composed cuts moves, on one-cut layouts, what Part 2's exchange moves. *)
Corollary one_cut_exchange_wire : forall S T h r l, layout_wf S = true -> layout_wf T = true ->
  hexchange_wire (clayout_holding (clayout_of_layout S)) (clayout_holding (clayout_of_layout T)) h r l
  = exchange_wire S T h r l.
Proof.
  intros S T h r l HS HT. rewrite exchange_wire_holdings. unfold hexchange_wire.
  destruct (one_cut_holding T r HT) as (T1 & _ & _ & T4).
  rewrite T1. destruct (hd_shape (layout_holding T) r); [| reflexivity].
  rewrite T4. destruct (one_cut_holding S (h r (hd_global (layout_holding T) r l)) HS) as (_ & _ & S3 & _).
  rewrite S3. reflexivity.
Qed.

(** ** A holder choice for composed cuts *)

(** The source rank of the device [cover_cdev] builds for [i]. *)
Definition cover_rank (S : clayout) (i : list nat) : nat :=
  nth (rank (cl_m S) (cover_cdev (cl_m S) (cl_ty S) i (fun _ => 0))) (pm_ranks (cl_mesh S)) 0.

(** Self first; else the rank of the owner [cover_cdev] builds. *)
Definition cuts_holder (S : clayout) : holder_choice :=
  fun r i => if hd_has (clayout_holding S) r i then r else cover_rank S i.

Lemma cty_wf_axes : forall m t x, cty_wf m t = true -> In x (cty_axes t) -> In x (mesh_axes m).
Proof.
  intros m t x Ht Hx. unfold cty_wf in Ht. apply andb_true_iff in Ht. destruct Ht as [Ht _].
  unfold cty_axes in Hx. apply in_flat_map in Hx. destruct Hx as (d & Hd & Hx).
  apply in_flat_map in Hx. destruct Hx as (k & Hk & Hx).
  rewrite forallb_forall in Ht. specialize (Ht d Hd). rewrite forallb_forall in Ht.
  specialize (Ht k Hk). unfold cut_wf in Ht. apply andb_true_iff in Ht. destruct Ht as [Ht _].
  rewrite forallb_forall in Ht. apply memb_In, Ht, Hx.
Qed.

(** Every index of the array's range is held by [cover_rank]. *)
Lemma cover_rank_holds : forall S i, clayout_wf S = true ->
  Forall2 (fun x n => x < n) i (map snd (cl_ty S)) ->
  hd_has (clayout_holding S) (cover_rank S i) i = true.
Proof.
  intros S i HS Hr. pose proof HS as HS'. unfold clayout_wf, pmesh_wf in HS'.
  rewrite !andb_true_iff, Nat.eqb_eq, ranks_distinct_NoDup in HS'.
  destruct HS' as [[[Hm Hlen] Hnd] Ht].
  set (m := cl_m S) in *. set (c := cover_cdev m (cl_ty S) i (fun _ => 0)).
  destruct (cuts_covered m (cl_ty S) i (fun _ => 0) Hm Ht) as [Hc Hhas]; [| exact Hr |].
  { intros x Hx. apply mesh_wf_size_pos; assumption. }
  fold c in Hc, Hhas. simpl. unfold cover_rank, cl_device. fold m. fold c.
  rewrite index_of_nth by (exact Hnd || (rewrite Hlen; apply rank_lt; assumption)). simpl. fold m.
  rewrite (c_has_ext m _ _ c); [exact Hhas |].
  intros x Hx. apply device_of_rank_rank; [exact Hm | exact Hc | eapply cty_wf_axes; eassumption].
Qed.

Theorem cuts_holder_ok : forall S T, clayout_wf S = true -> clayout_wf T = true ->
  map snd (cl_ty S) = map snd (cl_ty T) ->
  hreturns_holders (clayout_holding S) (clayout_holding T) (cuts_holder S)
  /\ hpicks_self (clayout_holding S) (cuts_holder S).
Proof.
  intros S T HS HT Hg. split.
  - intros r s l Hs Hl. unfold cuts_holder.
    destruct (hd_has (clayout_holding S) r (hd_global (clayout_holding T) r l)) eqn:E; [exact E |].
    apply cover_rank_holds; [exact HS |]. rewrite Hg.
    destruct (proj1 (cuts_holding_laws T HT) r s l Hs Hl) as [HTi _]. simpl in HTi.
    destruct (cl_device T r) as [c|]; [| discriminate]. eapply c_has_range. exact HTi.
  - intros r i H. unfold cuts_holder. rewrite H. reflexivity.
Qed.

(** With [cuts_holder], the exchange between any two well-formed layouts of
    composed cuts of one global shape is sound and receives exactly what is missing. *)
Corollary cuts_holder_exchange : forall S T, clayout_wf S = true -> clayout_wf T = true ->
  map snd (cl_ty S) = map snd (cl_ty T) ->
  (forall A (g : list nat -> A) (st : state A), hd_holds (clayout_holding S) g st ->
     hd_holds (clayout_holding T) g
       (run_wire (hexchange_wire (clayout_holding S) (clayout_holding T) (cuts_holder S)) st))
  /\ (forall r, hexchange_received (clayout_holding S) (clayout_holding T) (cuts_holder S) r
               = length (hmissing (clayout_holding S) (clayout_holding T) r)).
Proof.
  intros S T HS HT Hg. destruct (cuts_holder_ok S T HS HT Hg) as [Hh Hself]. split.
  - intros A g st Hst. apply cuts_exchange_sound; assumption.
  - intros r. apply hexchange_recv_exact; assumption.
Qed.
