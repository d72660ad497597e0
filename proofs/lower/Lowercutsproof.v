(** * The region messages of [Lowercuts.v] are the exchange's data movement.

    - [region_messages_match]: the boxes rank [r] sends to [p] have, in
      order, the extents of the boxes [p] receives from [r].
    - [region_exchange_sound]: executing the messages ([region_run]) leaves
      every rank of the target layout with its target holding of the array.
    - [region_wire_source]: each target position takes its element from a
      source rank that holds it, at that rank's local index.

    The steps: a global interval inside one held interval is a run of
    consecutive local indices ([interval_run]); so a cell, read in both
    local arrays, maps a target position to the source position of the
    same element ([cell_moves]); every needed element is in a cell of the
    rank itself or of a leading replica that holds it ([cell_covers],
    [lead_exists]). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Layout Layoutproof Cuts Cutsproof Holding Lowercuts.

(** ** Held intervals are runs of local indices *)

Lemma nth_intervals_elems : forall pre a n post s, s < n ->
  nth (length (intervals_elems pre) + s) (intervals_elems (pre ++ (a, n) :: post)) 0 = a + s.
Proof.
  intros pre a n post s Hs. unfold intervals_elems. rewrite flat_map_app. simpl.
  rewrite app_nth2 by lia. rewrite Nat.add_comm, Nat.add_sub. rewrite app_nth1 by (rewrite seq_length; lia).
  rewrite seq_nth by exact Hs. lia.
Qed.

Lemma length_intervals_elems : forall pre a n post,
  length (intervals_elems (pre ++ (a, n) :: post)) = length (intervals_elems pre) + n + length (intervals_elems post).
Proof.
  intros. unfold intervals_elems. rewrite flat_map_app, app_length. simpl. rewrite app_length, seq_length. lia.
Qed.

Theorem interval_run : forall m ks E c a n s, chunks_ok m ks c ->
  In (a, n) (dim_intervals m ks E c) -> s < n ->
  dim_owns m ks E c (a + s) = true /\ dim_local m ks E c (a + s) = dim_local m ks E c a + s.
Proof.
  intros m ks E c a n s Hok Hin Hs.
  apply in_split in Hin. destruct Hin as (pre & post & Hsplit).
  pose proof (dim_intervals_exact m ks E c Hok) as Hex. rewrite Hsplit in Hex.
  set (q := length (intervals_elems pre)).
  assert (Hat : forall s', s' < n -> q + s' < dim_extent m ks E c /\ dim_global m ks E c (q + s') = a + s').
  { intros s' Hs'. pose proof (f_equal (@length nat) Hex) as Hl.
    rewrite length_intervals_elems, map_length, seq_length in Hl. split; [lia |].
    pose proof (f_equal (fun xs => nth (q + s') xs 0) Hex) as Hn. cbv beta in Hn. unfold q in Hn.
    rewrite nth_intervals_elems in Hn by exact Hs'. fold q in Hn.
    rewrite nth_indep with (d' := dim_global m ks E c 0) in Hn by (rewrite map_length, seq_length; lia).
    rewrite map_nth, seq_nth in Hn by lia. simpl in Hn. lia. }
  destruct (Hat s Hs) as [H1 H2]. destruct (Hat 0 ltac:(lia)) as [H3 H4].
  destruct (dim_global_owned m ks E c _ Hok H1) as [G1 G2].
  destruct (dim_global_owned m ks E c _ Hok H3) as [_ G4].
  rewrite H2 in G1, G2. rewrite H4, Nat.add_0_r in G4. rewrite Nat.add_0_r in G4.
  split; [exact G1 |]. rewrite G2, G4. reflexivity.
Qed.

(** An owned index is in one of the device's intervals. *)
Lemma owned_in_interval : forall m ks E c x, chunks_ok m ks c -> dim_owns m ks E c x = true ->
  exists a n, In (a, n) (dim_intervals m ks E c) /\ a <= x < a + n.
Proof.
  intros m ks E c x Hok H. apply (dim_intervals_owned m ks E c x Hok) in H.
  unfold intervals_elems in H. apply in_flat_map in H. destruct H as ([a n] & Hin & Hx).
  apply in_seq in Hx. exists a, n. split; [exact Hin | simpl in Hx; lia].
Qed.

(** ** A cell, read in both local arrays *)

Lemma in_ivs_meet : forall xs ys iv, In iv (ivs_meet xs ys) ->
  exists a b, In a xs /\ In b ys /\ iv = iv_meet a b /\ snd iv <> 0.
Proof.
  intros xs ys iv H. unfold ivs_meet in H. apply filter_In in H. destruct H as [H Hn].
  apply in_flat_map in H. destruct H as (a & Ha & H). apply in_map_iff in H. destruct H as (b & <- & Hb).
  exists a, b. repeat split; try assumption. apply negb_true_iff, Nat.eqb_neq in Hn. exact Hn.
Qed.

Lemma ivs_meet_in : forall xs ys a b, In a xs -> In b ys -> snd (iv_meet a b) <> 0 -> In (iv_meet a b) (ivs_meet xs ys).
Proof.
  intros xs ys a b Ha Hb Hn. unfold ivs_meet. apply filter_In. split.
  - apply in_flat_map. exists a. split; [exact Ha | apply in_map; exact Hb].
  - apply negb_true_iff, Nat.eqb_neq. exact Hn.
Qed.

(** One dimension of a cell: target local [y] inside the cell's target box is
    the element [x] the source holds, at the shifted source local index. *)
Lemma dim_cell_moves : forall mS ksS mT ksT E cs ct aS nS aT nT y,
  chunks_ok mS ksS cs -> chunks_ok mT ksT ct ->
  In (aS, nS) (dim_intervals mS ksS E cs) -> In (aT, nT) (dim_intervals mT ksT E ct) ->
  let iv := iv_meet (aS, nS) (aT, nT) in
  dim_local mT ksT E ct (fst iv) <= y < dim_local mT ksT E ct (fst iv) + snd iv ->
  dim_owns mS ksS E cs (dim_global mT ksT E ct y) = true
  /\ dim_local mS ksS E cs (fst iv) + (y - dim_local mT ksT E ct (fst iv))
     = dim_local mS ksS E cs (dim_global mT ksT E ct y).
Proof.
  intros mS ksS mT ksT E cs ct aS nS aT nT y HS HT InS InT iv Hy. unfold iv, iv_meet in *. simpl in *.
  set (a := Nat.max aS aT) in *. set (n := Nat.min (aS + nS) (aT + nT) - a) in *.
  assert (Hn : n <> 0) by lia.
  destruct (interval_run mT ksT E ct aT nT (a - aT) HT InT ltac:(lia)) as [_ Ta].
  replace (aT + (a - aT)) with a in Ta by lia.
  set (t := y - dim_local mT ksT E ct a).
  destruct (interval_run mT ksT E ct aT nT (a - aT + t) HT InT ltac:(lia)) as [Tx1 Tx2].
  assert (Hx : dim_global mT ksT E ct y = a + t).
  { assert (Hy' : y = dim_local mT ksT E ct (aT + (a - aT + t))) by (rewrite Tx2; unfold t; lia).
    rewrite Hy'. rewrite (proj2 (dim_local_of_owned mT ksT E ct _ HT Tx1)). lia. }
  rewrite Hx.
  destruct (interval_run mS ksS E cs aS nS (a - aS + t) HS InS ltac:(lia)) as [Sx1 Sx2].
  destruct (interval_run mS ksS E cs aS nS (a - aS) HS InS ltac:(lia)) as [_ Sa].
  replace (aS + (a - aS + t)) with (a + t) in Sx1, Sx2 by lia.
  replace (aS + (a - aS)) with a in Sa by lia.
  split; [exact Sx1 |]. rewrite Sx2, Sa. lia.
Qed.

Lemma in_product_boxes : forall d ds b, In b (product_boxes (d :: ds)) ->
  exists iv b', b = iv :: b' /\ In iv d /\ In b' (product_boxes ds).
Proof.
  intros d ds b H. simpl in H. apply in_flat_map in H. destruct H as (iv & Hiv & H).
  apply in_map_iff in H. destruct H as (b' & <- & Hb'). exists iv, b'. auto.
Qed.

Section Cells.
Variables mS mT : mesh.

Theorem cell_moves : forall tS tT cs ct b l,
  cty_chunks_ok mS tS cs -> cty_chunks_ok mT tT ct -> map snd tS = map snd tT ->
  In b (product_boxes (meet_dims (c_intervals mS tS cs) (c_intervals mT tT ct))) ->
  in_lbox (localize mT tT ct b) l = true ->
  c_has mS tS cs (c_global mT tT ct l) = true
  /\ shift (localize mT tT ct b) (localize mS tS cs b) l = c_local mS tS cs (c_global mT tT ct l).
Proof.
  induction tS as [|dS tS IH]; intros [|dT tT] cs ct b l HS HT Hg Hb Hl; try discriminate.
  - simpl in Hb. destruct Hb as [<- | []]. destruct l; [split; reflexivity | discriminate].
  - simpl in Hg. injection Hg as HE Hg.
    apply in_product_boxes in Hb. destruct Hb as (iv & b' & -> & Hiv & Hb').
    destruct l as [|y l]; [simpl in Hl; discriminate |].
    apply cty_chunks_ok_cons in HS, HT. destruct HS as [HdS HS]. destruct HT as [HdT HT].
    destruct dS as [ksS E]. destruct dT as [ksT E']. simpl in HE. subst E'.
    simpl in Hl. rewrite !andb_true_iff, Nat.leb_le, Nat.ltb_lt in Hl.
    destruct Hl as [[Hy1 Hy2] Hl].
    destruct (IH tT cs ct b' l HS HT Hg Hb' Hl) as [H1 H2].
    destruct (in_ivs_meet _ _ _ Hiv) as ([aS nS] & [aT nT] & InS & InT & Hm & Hn).
    simpl in InS, InT. subst iv.
    destruct (dim_cell_moves mS ksS mT ksT E cs ct aS nS aT nT y HdS HdT InS InT) as [D1 D2];
      [simpl in *; split; assumption |].
    simpl. rewrite D1, H1. split; [reflexivity |]. rewrite H2. f_equal. exact D2.
Qed.

Theorem cell_covers : forall tS tT cs ct i,
  cty_chunks_ok mS tS cs -> cty_chunks_ok mT tT ct -> map snd tS = map snd tT ->
  c_has mS tS cs i = true -> c_has mT tT ct i = true ->
  exists b, In b (product_boxes (meet_dims (c_intervals mS tS cs) (c_intervals mT tT ct)))
       /\ in_lbox (localize mT tT ct b) (c_local mT tT ct i) = true.
Proof.
  induction tS as [|dS tS IH]; intros [|dT tT] cs ct i HS HT Hg HhS HhT; try discriminate.
  - exists []. destruct i; [split; [left; reflexivity | reflexivity] | discriminate].
  - simpl in Hg. injection Hg as HE Hg.
    destruct i as [|x i]; [discriminate |]. simpl in HhS, HhT.
    rewrite andb_true_iff in HhS, HhT. destruct HhS as [HxS HhS]. destruct HhT as [HxT HhT].
    apply cty_chunks_ok_cons in HS, HT. destruct HS as [HdS HS]. destruct HT as [HdT HT].
    destruct dS as [ksS E]. destruct dT as [ksT E']. simpl in HE. subst E'. simpl in *.
    destruct (IH tT cs ct i HS HT Hg HhS HhT) as (b' & Hb' & Hl).
    destruct (owned_in_interval _ _ _ _ _ HdS HxS) as (aS & nS & InS & XS).
    destruct (owned_in_interval _ _ _ _ _ HdT HxT) as (aT & nT & InT & XT).
    set (iv := iv_meet (aS, nS) (aT, nT)).
    assert (Hn : snd iv <> 0) by (unfold iv, iv_meet; simpl; lia).
    exists (iv :: b'). split.
    + apply in_flat_map. exists iv. split; [apply ivs_meet_in; assumption | apply in_map; exact Hb'].
    + simpl. rewrite Hl, andb_true_r. unfold iv, iv_meet. simpl.
      set (a := Nat.max aS aT). set (n := Nat.min (aS + nS) (aT + nT) - a).
      destruct (interval_run mT ksT E ct aT nT (a - aT) HdT InT ltac:(unfold a, n in *; simpl in Hn; lia)) as [_ Ta].
      destruct (interval_run mT ksT E ct aT nT (x - aT) HdT InT ltac:(lia)) as [_ Tx].
      replace (aT + (a - aT)) with a in Ta by lia. replace (aT + (x - aT)) with x in Tx by lia.
      rewrite Ta, Tx. apply andb_true_iff. rewrite Nat.leb_le, Nat.ltb_lt.
      unfold iv, iv_meet, a, n in *; simpl in Hn; lia.
Qed.

End Cells.

(** ** Sends and receives pair up *)

Lemma peer_boxes_messages : forall (f : nat -> bool) (g : nat -> list lbox) qs p,
  peer_boxes (flat_map (fun q => if f q then message q (g q) else []) qs) p
  = if f p && memb p qs then g p else [].
Proof.
  intros f g qs p. induction qs as [|q qs IH]; cbn [flat_map memb existsb].
  - rewrite andb_false_r. reflexivity.
  - destruct (Nat.eqb_spec p q) as [-> | Hpq]; cbn [orb].
    + rewrite andb_true_r. destruct (f q) eqn:Ef.
      * destruct (g q) as [|b bs] eqn:Eg; simpl.
        -- rewrite IH, ?Ef, ?Eg. destruct (_ && _); reflexivity.
        -- rewrite Nat.eqb_refl. reflexivity.
      * simpl. rewrite IH, ?Ef. reflexivity.
    + destruct (f q); [destruct (g q) as [|b bs] |]; simpl; try exact IH.
      destruct (Nat.eqb_spec q p); [congruence | exact IH].
Qed.

Lemma localize_extents : forall m t c b, length b <= length t -> map snd (localize m t c b) = map snd b.
Proof.
  intros m t c b. revert t. induction b as [|iv b IH]; intros [|d t] H; simpl in *; try lia; try reflexivity.
  rewrite IH by lia. reflexivity.
Qed.

Lemma product_boxes_length : forall ds b, In b (product_boxes ds) -> length b = length ds.
Proof.
  induction ds as [|d ds IH]; intros b H; [destruct H as [<- | []]; reflexivity |].
  apply in_product_boxes in H. destruct H as (iv & b' & -> & _ & H). simpl. rewrite (IH _ H). reflexivity.
Qed.

Lemma cell_length : forall S T cs ct b, map snd (cl_ty S) = map snd (cl_ty T) ->
  In b (device_cells S T cs ct) -> length b = length (cl_ty S) /\ length b = length (cl_ty T).
Proof.
  intros S T cs ct b Hg H. apply product_boxes_length in H. unfold meet_dims, c_intervals in H.
  rewrite map_length, combine_length, !map_length in H.
  pose proof (f_equal (@length nat) Hg) as Hl. rewrite !map_length in Hl. rewrite Hl, Nat.min_id in H. unfold cty, cdim in *. split; [rewrite H; symmetry; exact Hl | exact H].
Qed.

Lemma cl_device_memb : forall L w c, cl_device L w = Some c -> memb w (pm_ranks (cl_mesh L)) = true.
Proof.
  intros L w c H. unfold cl_device in H. destruct (index_of w (pm_ranks (cl_mesh L))) as [k|] eqn:Hk; [| discriminate].
  apply index_of_Some in Hk. destruct Hk as [Hk <-]. apply existsb_exists. exists (nth k (pm_ranks (cl_mesh L)) 0).
  split; [apply nth_In; exact Hk | apply Nat.eqb_refl].
Qed.

(** The [k]-th box rank [r] sends to [p] has the extents of the [k]-th box [p] receives from [r]. *)
Theorem region_messages_match : forall S T r p, map snd (cl_ty S) = map snd (cl_ty T) ->
  map (map snd) (peer_boxes (region_sends S T r) p) = map (map snd) (peer_boxes (region_recvs S T p) r).
Proof.
  intros S T r p Hg. unfold region_sends, region_recvs. rewrite !peer_boxes_messages.
  unfold region_cells. destruct (cl_device S r) as [cs|] eqn:Hs; [| destruct (_ && _), (_ && _); reflexivity].
  destruct (cl_device T p) as [ct|] eqn:Ht; [| destruct (_ && _), (_ && _); reflexivity].
  rewrite (cl_device_memb _ _ _ Hs), (cl_device_memb _ _ _ Ht), !andb_true_r.
  destruct (sends_to S r p); [| reflexivity]. rewrite !map_map. apply map_ext_in. intros b Hb.
  destruct (cell_length S T cs ct b Hg Hb) as [H1 H2].
  unfold src_local, tgt_local. rewrite Hs, Ht, !localize_extents by lia. reflexivity.
Qed.

(** ** Replicas and leads *)

Lemma same_parts_has : forall m t c c' i, same_parts m t c c' = true -> c_has m t c i = c_has m t c' i.
Proof.
  intros m t c c'. induction t as [|d t IH]; intros [|x i] H; try reflexivity.
  unfold same_parts in H. simpl in H. apply andb_true_iff in H. destruct H as [Hd H]. simpl.
  rewrite (IH i H). f_equal. apply dim_owns_chunks. apply Forall_forall. intros k Hk.
  rewrite forallb_forall in Hd. apply Nat.eqb_eq, Hd, Hk.
Qed.

Lemma has_same_parts : forall m t c c' i, c_has m t c i = true -> c_has m t c' i = true ->
  same_parts m t c c' = true.
Proof.
  intros m t c c'. induction t as [|d t IH]; intros [|x i] H H'; try reflexivity; try discriminate.
  simpl in H, H'. rewrite andb_true_iff in H, H'. unfold same_parts. simpl. apply andb_true_iff. split.
  - apply forallb_forall. intros k Hk. apply Nat.eqb_eq.
    pose proof (dim_owner_unique m _ _ c c' x (proj1 H) (proj1 H')) as Hf.
    rewrite Forall_forall in Hf. apply Hf, Hk.
  - apply (IH i); [apply H | apply H'].
Qed.

Lemma forallb_false_exists : forall A (f : A -> bool) xs, forallb f xs = false -> exists x, In x xs /\ f x = false.
Proof.
  intros A f xs. induction xs as [|x xs IH]; simpl; [discriminate |]. intros H.
  destruct (f x) eqn:E; [destruct (IH H) as (y & Hy & Hf); exists y; auto | exists x; auto].
Qed.

Lemma lead_exists : forall S i k, c_has (cl_m S) (cl_ty S) (device_of_rank (cl_m S) k) i = true ->
  exists k', k' <= k /\ is_lead S k' = true /\ c_has (cl_m S) (cl_ty S) (device_of_rank (cl_m S) k') i = true.
Proof.
  intros S i k. induction k as [k IH] using (well_founded_induction lt_wf). intros H.
  destruct (is_lead S k) eqn:E; [exists k; auto |].
  apply forallb_false_exists in E. destruct E as (k' & Hk' & Hs). apply in_seq in Hk'.
  apply negb_false_iff in Hs. rewrite <- (same_parts_has _ _ _ _ i Hs) in H.
  destruct (IH k' ltac:(lia) H) as (k'' & H1 & H2 & H3). exists k''. split; [lia | auto].
Qed.

(** ** Where each target position takes its value from *)

Lemma find_box_some : forall bs l k, find_box bs l = Some k -> k < length bs /\ in_lbox (nth k bs []) l = true.
Proof.
  induction bs as [|b bs IH]; intros l k H; simpl in H; [discriminate |].
  destruct (in_lbox b l) eqn:E; [injection H as <-; simpl; split; [lia | exact E] |].
  destruct (find_box bs l) as [k'|] eqn:F; [| discriminate]. injection H as <-.
  destruct (IH l k' F). simpl. split; [lia | assumption].
Qed.

Lemma find_box_none : forall bs l b, find_box bs l = None -> In b bs -> in_lbox b l = false.
Proof.
  induction bs as [|b' bs IH]; intros l b H Hb; [destruct Hb |]. simpl in H.
  destruct (in_lbox b' l) eqn:E; [discriminate |].
  destruct Hb as [<- | Hb]; [exact E |]. destruct (find_box bs l) eqn:F; [discriminate | apply (IH l b F Hb)].
Qed.

Lemma localize_nil : forall m t c, localize m t c [] = [].
Proof. intros m [|d t] c; reflexivity. Qed.

Lemma nth_map_localize : forall m t c bs k,
  nth k (map (localize m t c) bs) [] = localize m t c (nth k bs []).
Proof. intros. rewrite <- (localize_nil m t c) at 1. apply map_nth. Qed.

Section Sound.
Variables S T : clayout.
Hypothesis HS : clayout_wf S = true.
Hypothesis HT : clayout_wf T = true.
Hypothesis Hg : map snd (cl_ty S) = map snd (cl_ty T).

Let recv_entry (r : nat) (e : nat * list lbox) : Prop :=
  sends_to S (fst e) r = true /\ snd e = map (tgt_local T r) (region_cells S T (fst e) r).

Lemma recv_entries : forall r e, In e (region_recvs S T r) -> In (fst e) (pm_ranks (cl_mesh S)) /\ recv_entry r e.
Proof.
  intros r e H. unfold region_recvs in H. apply in_flat_map in H. destruct H as (p & Hp & H).
  destruct (sends_to S p r) eqn:E; [| destruct H]. unfold message in H.
  destruct (map (tgt_local T r) (region_cells S T p r)) as [|b bs] eqn:M; [destruct H |].
  destruct H as [<- | []]. split; [exact Hp | split; [exact E | symmetry; exact M]].
Qed.

Lemma recv_source_ok : forall r ct l msgs p pos, cl_device T r = Some ct ->
  (forall e, In e msgs -> recv_entry r e) ->
  recv_source (region_sends S T) r msgs l = Some (p, pos) ->
  exists cs b, cl_device S p = Some cs /\ In b (device_cells S T cs ct)
    /\ in_lbox (localize (cl_m T) (cl_ty T) ct b) l = true
    /\ pos = shift (localize (cl_m T) (cl_ty T) ct b) (localize (cl_m S) (cl_ty S) cs b) l.
Proof.
  intros r ct l msgs. induction msgs as [|[q bs] msgs IH]; intros p pos Hct Hall H; simpl in H; [discriminate |].
  destruct (find_box bs l) as [k|] eqn:F; [| apply IH; auto; intros e He; apply Hall; right; exact He].
  injection H as <- <-. destruct (Hall (q, bs) (or_introl eq_refl)) as [Hs Hbs]. simpl in Hs, Hbs.
  destruct (find_box_some _ _ _ F) as [Hk Hin]. subst bs. rewrite map_length in Hk.
  unfold region_cells in *. destruct (cl_device S q) as [cs|] eqn:Hcs; [| simpl in Hk; lia].
  rewrite Hct in *. exists cs, (nth k (device_cells S T cs ct) []).
  assert (Ht : forall b, tgt_local T r b = localize (cl_m T) (cl_ty T) ct b) by (intros; unfold tgt_local; rewrite Hct; reflexivity).
  rewrite (map_ext _ _ Ht), nth_map_localize in Hin.
  split; [reflexivity |]. split; [apply nth_In; exact Hk |]. split; [exact Hin |].
  unfold region_sends. rewrite peer_boxes_messages, Hs, (cl_device_memb _ _ _ Hct). simpl.
  unfold region_cells. rewrite Hcs, Hct.
  assert (Hs' : forall b, src_local S q b = localize (cl_m S) (cl_ty S) cs b) by (intros; unfold src_local; rewrite Hcs; reflexivity).
  rewrite (map_ext _ _ Ht), (map_ext _ _ Hs'), !nth_map_localize. reflexivity.
Qed.

Lemma recv_source_none : forall sends r msgs l e, recv_source sends r msgs l = None -> In e msgs ->
  find_box (snd e) l = None.
Proof.
  intros sends r msgs l e. induction msgs as [|[q bs] msgs IH]; intros H He; [destruct He |]. simpl in H.
  destruct (find_box bs l) eqn:F; [discriminate |]. destruct He as [<- | He]; [exact F | apply IH; assumption].
Qed.

(** Target position [l] of rank [r] takes the element its target holds, from a source rank that holds it. *)
Theorem region_wire_source : forall r ct l, cl_device T r = Some ct -> in_box (c_shape (cl_m T) (cl_ty T) ct) l ->
  let i := c_global (cl_m T) (cl_ty T) ct l in
  exists cs, cl_device S (fst (region_wire (region_sends S T) (region_recvs S T) (region_copies S T) r l)) = Some cs
    /\ c_has (cl_m S) (cl_ty S) cs i = true
    /\ snd (region_wire (region_sends S T) (region_recvs S T) (region_copies S T) r l) = c_local (cl_m S) (cl_ty S) cs i.
Proof.
  intros r ct l Hct Hl i.
  pose proof (cl_device_in T r ct HT Hct) as Okt.
  destruct (c_global_has _ _ _ _ Okt Hl) as [HTi HTl]. fold i in HTi, HTl.
  assert (Okd : forall w c, cl_device S w = Some c -> cty_chunks_ok (cl_m S) (cl_ty S) c)
    by (intros w c H; exact (cl_device_in S w c HS H)).
  unfold region_wire.
  destruct (find (fun bb => in_lbox (snd bb) l) (region_copies S T r)) as [[sb tb]|] eqn:Fc.
  - apply find_some in Fc. destruct Fc as [Hin Htb]. simpl in Htb.
    unfold region_copies in Hin. apply in_map_iff in Hin. destruct Hin as (b & Hb & Hin).
    injection Hb as <- <-. unfold region_cells in Hin. destruct (cl_device S r) as [cs|] eqn:Hcs; [| destruct Hin].
    rewrite Hct in Hin. unfold src_local, tgt_local in *. rewrite Hcs in *. rewrite Hct in Htb.
    destruct (cell_moves _ _ _ _ cs ct b l (Okd r cs Hcs) Okt Hg Hin Htb) as [H1 H2].
    exists cs. simpl. rewrite Hct. split; [exact Hcs | split; [exact H1 | exact H2]].
  - destruct (recv_source (region_sends S T) r (region_recvs S T r) l) as [[p pos]|] eqn:Fr.
    + destruct (recv_source_ok r ct l _ p pos Hct (fun e He => proj2 (recv_entries r e He)) Fr)
        as (cs & b & Hcs & Hb & Hin & ->).
      destruct (cell_moves _ _ _ _ cs ct b l (Okd p cs Hcs) Okt Hg Hb Hin) as [H1 H2].
      exists cs. simpl. split; [exact Hcs | split; [exact H1 | exact H2]].
    + exfalso.
      assert (Hself : forall cs, cl_device S r = Some cs -> c_has (cl_m S) (cl_ty S) cs i = false).
      { intros cs Hcs. destruct (c_has (cl_m S) (cl_ty S) cs i) eqn:E; [| reflexivity]. exfalso.
        destruct (cell_covers _ _ _ _ cs ct i (Okd r cs Hcs) Okt Hg E HTi) as (b & Hb & Hin).
        rewrite HTl in Hin.
        assert (Hc : In (src_local S r b, tgt_local T r b) (region_copies S T r)).
        { unfold region_copies, region_cells. rewrite Hcs, Hct. apply in_map with (f := fun b => (src_local S r b, tgt_local T r b)). exact Hb. }
        pose proof (find_none _ _ Fc _ Hc) as Hf. simpl in Hf. unfold tgt_local in Hf. rewrite Hct, Hin in Hf. discriminate. }
      assert (Hr : Forall2 (fun x n => x < n) i (map snd (cl_ty S))) by (rewrite Hg; eapply c_has_range; exact HTi).
      pose proof (cover_rank_holds S i HS Hr) as Hcov. simpl in Hcov.
      destruct (cl_device S (cover_rank S i)) as [c0|] eqn:H0; [| discriminate].
      unfold cl_device in H0. destruct (index_of (cover_rank S i) (pm_ranks (cl_mesh S))) as [k0|] eqn:Hk0; [| discriminate].
      injection H0 as <-. destruct (lead_exists S i k0 Hcov) as (k & Hk & Hlead & Hhas).
      apply index_of_Some in Hk0. destruct Hk0 as [Hk0 _].
      pose proof HS as HS'. unfold clayout_wf, pmesh_wf in HS'.
      rewrite !andb_true_iff, ranks_distinct_NoDup in HS'. destruct HS' as [[[_ _] Hnd] _].
      set (p := nth k (pm_ranks (cl_mesh S)) 0).
      assert (Hidx : index_of p (pm_ranks (cl_mesh S)) = Some k) by (apply index_of_nth; [exact Hnd | lia]).
      assert (Hps : cl_device S p = Some (device_of_rank (cl_m S) k)) by (unfold cl_device; rewrite Hidx; reflexivity).
      assert (Hsend : sends_to S p r = true).
      { unfold sends_to. rewrite Hidx, Hlead. destruct (Nat.eqb_spec p r) as [Epr | _].
        - rewrite <- Epr in Hself. rewrite (Hself _ Hps) in Hhas. discriminate.
        - simpl. destruct (cl_device S r) as [c|] eqn:Hc; [| reflexivity].
          apply negb_true_iff. destruct (same_parts (cl_m S) (cl_ty S) c (device_of_rank (cl_m S) k)) eqn:Es; [| reflexivity].
          rewrite <- (same_parts_has _ _ _ _ i Es), (Hself c eq_refl) in Hhas. discriminate. }
      destruct (cell_covers _ _ _ _ _ ct i (Okd p _ Hps) Okt Hg Hhas HTi) as (b & Hb & Hin). rewrite HTl in Hin.
      assert (He : In (p, map (tgt_local T r) (region_cells S T p r)) (region_recvs S T r)).
      { unfold region_recvs. apply in_flat_map. exists p. split; [apply nth_In; lia |]. rewrite Hsend.
        unfold region_cells. rewrite Hps, Hct.
        destruct (device_cells S T (device_of_rank (cl_m S) k) ct) as [|b0 bs] eqn:Ec;
          [assert (Hb0 : In b (device_cells S T (device_of_rank (cl_m S) k) ct)) by exact Hb; rewrite Ec in Hb0; destruct Hb0 | left; reflexivity]. }
      pose proof (recv_source_none _ _ _ _ _ Fr He) as Hn. simpl in Hn.
      unfold region_cells in Hn. rewrite Hps, Hct in Hn.
      assert (Hb' : In (tgt_local T r b) (map (tgt_local T r) (device_cells S T (device_of_rank (cl_m S) k) ct))) by (apply in_map; exact Hb).
      pose proof (find_box_none _ _ _ Hn Hb') as Hf. unfold tgt_local in Hf. rewrite Hct, Hin in Hf. discriminate.
Qed.

End Sound.

(** Executing the region messages leaves every rank with its target holding. *)
Theorem region_exchange_sound : forall S T A (g : list nat -> A) (st : state A),
  clayout_wf S = true -> clayout_wf T = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  hd_holds (clayout_holding S) g st -> hd_holds (clayout_holding T) g (region_run S T st).
Proof.
  intros S T A g st HS HT Hg Hst r sh Hsh l Hl. simpl in Hsh.
  destruct (cl_device T r) as [ct|] eqn:Hct; [| discriminate]. injection Hsh as <-.
  destruct (region_wire_source S T HS HT Hg r ct l Hct Hl) as (cs & H1 & H2 & H3).
  unfold region_run, run_wire.
  destruct (region_wire (region_sends S T) (region_recvs S T) (region_copies S T) r l) as [s ls]. simpl in *.
  subst ls. pose proof (cl_device_in S s cs HS H1) as Oks.
  destruct (c_local_of_has _ _ _ _ Oks H2) as [Hin Hgl].
  assert (Hsh : hd_shape (clayout_holding S) s = Some (c_shape (cl_m S) (cl_ty S) cs))
    by (unfold clayout_holding; cbn [hd_shape]; rewrite H1; reflexivity).
  rewrite (Hst s _ Hsh _ Hin). unfold clayout_holding; cbn [hd_global]. unfold device_or_self.
  rewrite H1, Hct, Hgl. reflexivity.
Qed.
