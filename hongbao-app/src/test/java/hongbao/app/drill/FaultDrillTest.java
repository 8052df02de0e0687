package hongbao.app.drill;

import static hongbao.app.drill.Drills.decode;
import static hongbao.app.drill.Drills.drained;
import static hongbao.app.drill.Drills.grab;
import static hongbao.app.drill.Drills.paid;
import static hongbao.app.drill.Drills.sendFixed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.activity.Activities;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.app.support.TestService;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.money.Amount;
import hongbao.core.ops.Violations;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.payout.PayoutRefused;
import hongbao.core.payout.PayoutTask;
import hongbao.core.reconcile.Reconciler;
import hongbao.redis.RedisKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.codec.ByteArrayCodec;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Drills "poison", "failing", "refund-failing", "grace" and "reused-id": a payout no retry can
 * make, one that fails every time it is tried, a refund that fails until mended, an orphaned task,
 * Redis keys that aged out while payouts were down, and a packet id handed out twice. Each runs on
 * a Redis and a schema of its own and ends with the reconciler finding nothing, or naming exactly
 * what the fault destroyed.
 */
class FaultDrillTest {

  private DrillRig rig;
  private EmbeddedRedis redis;
  private TestService service;

  private TestService start(String drill, Map<String, String> env, boolean workers) {
    rig = DrillRig.start(drill, env, workers);
    redis = rig.redis;
    service = rig.service;
    return service;
  }

  @AfterEach
  void stop() {
    if (rig != null) {
      rig.close();
    }
  }

  /**
   * A bug is not an outage: a grab whose script meets a key of the wrong type (Redis answers the
   * script with an error, as it would a script's own mistake) is a 500, logged with its stack
   * trace, not a 503 that tells the client to try again. The reconciler names the packet and checks
   * the others, instead of failing the whole run. Mended, the packet is grabbed as before.
   */
  @Test
  void corrupt_aScriptErrorIsAnsweredAsABug_notAsAnOutage() {
    start("corrupt", Map.of(), true);
    Api api = service.api();
    String sender = "corrupt-sender";
    api.topUp(sender, 1_000);
    String packet = sendFixed(api, sender, 1000, 2, 600);
    String meta = new RedisKeys(RedisKeys.DEFAULT_SHARDS).meta(decode(packet));
    RedisClient client = RedisClient.create(redis.url());
    try (var connection = client.connect(ByteArrayCodec.INSTANCE)) {
      var commands = connection.sync();
      byte[] key = meta.getBytes(StandardCharsets.UTF_8);
      byte[] kept = commands.dump(key);
      commands.del(key);
      commands.set(key, "not a hash".getBytes(StandardCharsets.UTF_8));

      var broken = api.grab(api.token("corrupt-grabber"), packet);
      assertThat(broken.status()).as(broken.raw()).isEqualTo(500);
      assertThat(broken.errorCode()).isEqualTo("INTERNAL");
      assertThat(service.hongbao().parts().reconciler().reconcile().discrepancies())
          .singleElement()
          .asString()
          .startsWith("packet " + decode(packet) + ": could not be checked: ");

      commands.del(key);
      commands.restore(key, 0, kept);
    } finally {
      client.shutdown();
    }
    var mended = api.grab(api.token("corrupt-grabber"), packet);
    assertThat(mended.json().getString("outcome")).as(mended.raw()).isEqualTo("GRABBED");
    drained(service.hongbao().parts());
    assertThat(service.hongbao().parts().reconciler().reconcile().discrepancies()).isEmpty();
  }

  @Test
  void poison_refusedTasksAreDeadLetteredAtOnce_anOrphanIsReclaimed_theRestArePaid() {
    start("poison", Map.of("HONGBAO_RECLAIM_IDLE_MILLIS", "500"), true);
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String sender = "poison-sender";
    api.topUp(sender, 10_000);
    String packet = sendFixed(api, sender, 1000, 10, 600);
    long id = decode(packet);
    Drills.payouts(parts, false);
    for (int u = 0; u < 4; u++) {
      grab(api, "poison-" + u, packet);
    }
    // Poison: a share larger than the escrow holds, and a task of a packet the ledger never had.
    xadd(id, id, "greedy", 5_000);
    xadd(id, 424_242, "ghost", 7);
    // An orphan: a consumer takes a task and dies without a word.
    List<PayoutTask> orphaned = parts.queue().poll("dead-consumer", 1, Duration.ofMillis(100));
    assertThat(orphaned).hasSize(1);
    Drills.payouts(parts, true);
    for (int u = 4; u < 8; u++) {
      grab(api, "poison-" + u, packet);
    }

    drained(parts);
    // A second share of the packet for a paid grabber (the store lost the first grab and let it
    // grab again): not skipped as a replay of the first.
    xadd(id, id, "poison-7", 1);
    drained(parts);
    assertThat(paid(parts, packet)).hasSize(8).containsEntry("poison-7", Amount.fen(100));
    assertThat(service.hongbao().parts().reconciler().reconcile().discrepancies())
        .hasSize(3)
        .anySatisfy(
            d ->
                assertThat(d)
                    .startsWith("packet " + id + ": payout of 5000 fen to greedy was dead-lettered")
                    .contains("the books refuse"))
        .anySatisfy(
            d ->
                assertThat(d)
                    .startsWith("packet " + id + ": payout of 1 fen to poison-7 was dead-lettered")
                    .contains("was paid 100 fen grabbed at")
                    .contains("this task pays 1 fen grabbed at"))
        .anySatisfy(
            d ->
                assertThat(d)
                    .startsWith("packet 424242: payout of 7 fen to ghost was dead-lettered")
                    .contains("no escrow"));
  }

  @Test
  void
      failing_aTaskThatFailsEveryTime_isDeadLetteredAfterItsDeliveries_paidOnceTheOperatorRetriesIt()
          throws Exception {
    int maxDeliveries = 3;
    start(
        "failing",
        Map.of("HONGBAO_RECLAIM_IDLE_MILLIS", "300", "HONGBAO_MAX_DELIVERIES", "" + maxDeliveries),
        true);
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String sender = "failing-sender";
    String unlucky = "failing-unlucky";
    api.topUp(sender, 10_000);
    String packet = sendFixed(api, sender, 1000, 10, 600);
    long id = decode(packet);
    // The database fails one grabber's payout every time, with an error that is neither an outage
    // nor the books' refusal (which would be dead-lettered at once).
    service
        .books()
        .execute(
            """
        CREATE FUNCTION fail_unlucky() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.kind = 'GRAB' AND NEW.user_id = '%s' THEN
                RAISE EXCEPTION 'the drill fails this payout';
            END IF;
            RETURN NEW;
        END $$"""
                .formatted(unlucky),
            "CREATE TRIGGER fail_unlucky BEFORE INSERT ON transfer"
                + " FOR EACH ROW EXECUTE FUNCTION fail_unlucky()");
    for (int u = 0; u < 4; u++) {
      grab(api, "failing-" + u, packet);
    }
    grab(api, unlucky, packet);
    for (int u = 4; u < 8; u++) {
      grab(api, "failing-" + u, packet);
    }

    // Redelivered after each reclaim idle until past the limit, then moved out of the stream.
    drained(parts);
    assertThat(paid(parts, packet)).hasSize(8).doesNotContainKey(unlucky);
    assertThat(parts.queue().deadLetters(10))
        .singleElement()
        .satisfies(
            dead -> {
              assertThat(dead.task().userId()).isEqualTo(unlucky);
              assertThat(dead.task().amount()).isEqualTo(Amount.fen(100));
              assertThat(dead.reason())
                  .isEqualTo("delivered " + (maxDeliveries + 1) + " times without being paid");
            });
    assertThat(parts.reconciler().reconcile().discrepancies())
        .singleElement()
        .satisfies(
            d ->
                assertThat(d)
                    .startsWith(
                        "packet " + id + ": payout of 100 fen to " + unlucky + " was dead-lettered")
                    .contains("without being paid"));
    // Nothing retries it behind the operator's back.
    assertThat(api.grab(api.token(unlucky), packet).json().getString("outcome"))
        .isEqualTo("ALREADY_GRABBED");
    assertThat(paid(parts, packet)).doesNotContainKey(unlucky);

    // The operator's remedy once the cause is gone: the dead letter goes back to its queue and is
    // paid once; the same retry again finds nothing, and the books are clean.
    service.books().execute("DROP TRIGGER fail_unlucky ON transfer");
    String admin = api.adminToken();
    var listed = api.get("/api/v1/admin/dead-letters", admin);
    assertThat(listed.status()).as(listed.raw()).isEqualTo(200);
    var items = listed.json().getJsonArray("items");
    assertThat(items.size()).as(listed.raw()).isEqualTo(1);
    var item = items.getJsonObject(0);
    assertThat(item.getString("userId")).isEqualTo(unlucky);
    assertThat(item.getLong("packetId")).isEqualTo(id);
    assertThat(item.getString("packet")).isEqualTo(packet);
    assertThat(item.getString("grabbedAt")).matches("\\d{4}-\\d\\d-\\d\\dT[0-9:]{8}\\.\\d{3}Z");
    assertThat(item.getLong("amount")).isEqualTo(100L);
    String retry = JsonObject.of("id", item.getString("id")).encode();
    var retried = api.post("/api/v1/admin/dead-letters/retry", admin, Map.of(), retry);
    assertThat(retried.status()).as(retried.raw()).isEqualTo(200);
    drained(parts);
    assertThat(paid(parts, packet)).hasSize(9).containsEntry(unlucky, Amount.fen(100));
    assertThat(parts.queue().deadLetters(10)).isEmpty();
    var again = api.post("/api/v1/admin/dead-letters/retry", admin, Map.of(), retry);
    assertThat(again.status()).as(again.raw()).isEqualTo(404);
    assertThat(api.get("/api/v1/wallet", api.token(unlucky)).json().getLong("balance"))
        .isEqualTo(100L);
    assertThat(parts.reconciler().reconcile().discrepancies()).isEmpty();
  }

  @Test
  void refundFailing_isRetriedWithItsReasonKept_othersRefunded_thenRefundedOnceItCan()
      throws Exception {
    start("refund-failing", Map.of(), true);
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String sender = "refund-failing-sender";
    api.topUp(sender, 10_000);
    // The database refuses to close one packet (the sender's of 1000 fen): an error that is
    // neither an outage nor a refusal of the books. In place before the packets are sent, as they
    // expire a moment later.
    service
        .books()
        .execute(
            """
        CREATE FUNCTION fail_close() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.sender = '%s' AND NEW.amount = 1000 AND NEW.closed_at IS NOT NULL THEN
                RAISE EXCEPTION 'the drill fails this refund';
            END IF;
            RETURN NEW;
        END $$"""
                .formatted(sender),
            "CREATE TRIGGER fail_close BEFORE UPDATE ON packet"
                + " FOR EACH ROW EXECUTE FUNCTION fail_close()");
    String failing = sendFixed(api, sender, 1000, 10, 2);
    String other = sendFixed(api, sender, 1200, 10, 2);
    long failingId = decode(failing);
    for (String packet : List.of(failing, other)) {
      assertThat(grab(api, "refund-failing-grabber", packet).getString("outcome"))
          .isEqualTo("GRABBED");
    }

    // The other packet is refunded behind it; the failing one is tried again and again.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                refunded(parts, decode(other)) == 1080
                    && service
                            .books()
                            .value("SELECT refund_attempts FROM packet WHERE id = ?", failingId)
                        >= 2);
    assertThat(refunded(parts, failingId)).isZero();
    // Past the reconciler's patience (a minute in production, a second here) it is reported, with
    // what it holds, its attempts and the reason.
    var patient =
        new Reconciler(
            parts.database().audit(),
            parts.database().packets(),
            parts.store(),
            parts.queue(),
            java.time.Clock.systemUTC(),
            new Reconciler.Limits(Duration.ofMinutes(5), Duration.ofSeconds(1), 1_000_000),
            new Violations());
    assertThat(patient.reconcile().discrepancies())
        .singleElement()
        .satisfies(
            d ->
                assertThat(d)
                    .startsWith("packet " + failingId + ": expired at ")
                    .contains("and not refunded: escrow holds 900 fen (")
                    .contains("the drill fails this refund"));

    // Mended, it is refunded at its next attempt, once.
    service.books().execute("DROP TRIGGER fail_close ON packet");
    await().atMost(Duration.ofSeconds(30)).until(() -> refunded(parts, failingId) == 900);
    assertThat(patient.reconcile().discrepancies()).isEmpty();
    service.assertReconciled();
  }

  /** What the ledger gave back to the sender of {@code packetId}, in fen. */
  private long refunded(Parts parts, long packetId) {
    return service
        .books()
        .value(
            "SELECT coalesce(sum(amount), 0) FROM transfer WHERE packet_id = ? AND kind = 'REFUND'",
            packetId);
  }

  @Test
  void grace_keysAgedOutWhilePayoutsWereDown_refundWaitsForThePayouts_andTakesOnlyWhatIsLeft() {
    start("grace", Map.of("HONGBAO_KEY_GRACE_SECONDS", "1"), false);
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String sender = "grace-sender";
    api.topUp(sender, 1_000);
    String packet = sendFixed(api, sender, 300, 3, 3);
    long id = decode(packet);
    grab(api, "grace-a", packet);
    grab(api, "grace-b", packet);
    // Payouts and sweeps are down (no workers) until the packet's keys have aged out of Redis.
    agedOut(parts, id);

    assertThat(parts.sweeper().sweepOnce()).as("the grabs are not paid yet").isZero();
    var worker = hongbao.app.workers.Workers.payoutWorker(service.hongbao().config(), parts, "w");
    assertThat(worker.payOnce()).isEqualTo(2);
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> parts.sweeper().sweepOnce() == 1);

    assertThat(parts.database().packets().refunded(id)).isEqualTo(Amount.fen(100));
    assertThat(paid(parts, packet)).hasSize(2);
    service.assertReconciled();
  }

  /**
   * As above, with one of the grabs' payouts given up on (dead-lettered) before the keys aged out.
   * It is still owed: the refund leaves its share in the escrow, and once the operator retries it,
   * it is paid and the reconciler finds nothing. The refund used to take that share too, and the
   * retried payout was refused for good.
   */
  @Test
  void grace_aDeadLetteredPayout_keepsItsShareInTheEscrow_forItsRetry() {
    start("grace-dead", Map.of("HONGBAO_KEY_GRACE_SECONDS", "1"), false);
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String sender = "grace-dead-sender";
    api.topUp(sender, 1_000);
    String packet = sendFixed(api, sender, 300, 3, 3);
    long id = decode(packet);
    grab(api, "grace-dead-a", packet);
    grab(api, "grace-dead-b", packet);
    List<PayoutTask> tasks = parts.queue().poll("drill", 10, Duration.ofMillis(100));
    assertThat(tasks).hasSize(2);
    for (PayoutTask task : tasks) {
      if (task.userId().equals("grace-dead-a")) {
        paidAndAcked(parts, task);
      } else {
        parts.queue().deadLetter(task, "the drill gives up on it");
      }
    }
    agedOut(parts, id);

    assertThat(parts.sweeper().sweepOnce()).isEqualTo(1);

    assertThat(parts.database().packets().refunded(id)).isEqualTo(Amount.fen(100));
    assertThat(parts.database().audit().escrowBalance(id)).isEqualTo(Amount.fen(100));
    var dead = parts.queue().deadLetters(10);
    assertThat(dead).extracting(d -> d.task().userId()).containsExactly("grace-dead-b");
    assertThat(parts.queue().redrive(dead.getFirst().id())).isTrue();
    var worker = hongbao.app.workers.Workers.payoutWorker(service.hongbao().config(), parts, "w");
    assertThat(worker.payOnce()).isEqualTo(1);
    assertThat(paid(parts, packet)).containsOnlyKeys("grace-dead-a", "grace-dead-b");
    assertThat(parts.database().audit().escrowBalance(id)).isEqualTo(Amount.ZERO);
    service.assertReconciled();
  }

  /**
   * A packet whose keys aged out of Redis after it closed is answered from the ledger, in the order
   * the grab script answers while it is there: a grabber keeps ALREADY_GRABBED; an expired packet
   * with shares left is EXPIRED to anyone, a non-recipient included; an emptied one is NOT_ELIGIBLE
   * to a non-recipient, WRONG_PASSWORD to a wrong phrase and LIMIT_REACHED to a user at its
   * activity's limit before it is SOLD_OUT.
   */
  @Test
  void longGone_aPacketOutOfRedis_isAnsweredInTheGrabsOrder() {
    // Closed by the sweeper at expiry, while its keys are still there; gone two seconds later.
    start(
        "long-gone",
        Map.of("HONGBAO_KEY_GRACE_SECONDS", "2", "HONGBAO_SWEEP_INTERVAL_MILLIS", "100"),
        true);
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String sender = "gone-sender";
    api.topUp(sender, 1_000);
    String exclusive = send(api, sender, JsonObject.of("recipients", List.of("gone-a", "gone-b")));
    String left = send(api, sender, JsonObject.of("recipients", List.of("gone-c", "gone-d")));
    String phrase = send(api, sender, JsonObject.of("password", "恭喜发财"));
    String activity = Activities.create(api, "long-gone", 1);
    String mine = send(api, sender, JsonObject.of("activityId", activity));
    String full = send(api, sender, JsonObject.of("activityId", activity));
    for (var grab :
        List.of(
            List.of("gone-a", exclusive),
            List.of("gone-b", exclusive),
            List.of("gone-c", left),
            List.of("gone-f", mine),
            List.of("gone-g", full),
            List.of("gone-h", full))) {
      assertThat(grab(api, grab.get(0), grab.get(1)).getString("outcome")).isEqualTo("GRABBED");
    }
    var opened = api.grab(api.token("gone-e"), phrase, "恭喜发财");
    assertThat(opened.json().getString("outcome")).as(opened.raw()).isEqualTo("GRABBED");
    drained(parts);
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                List.of(exclusive, left, phrase, mine, full).stream()
                    .allMatch(p -> parts.store().state(decode(p)).isEmpty()));

    assertThat(grab(api, "gone-a", exclusive).getString("outcome")).isEqualTo("ALREADY_GRABBED");
    assertThat(grab(api, "gone-x", exclusive).getString("outcome")).isEqualTo("NOT_ELIGIBLE");
    assertThat(grab(api, "gone-x", left).getString("outcome")).isEqualTo("EXPIRED");
    assertThat(grab(api, "gone-x", phrase).getString("outcome")).isEqualTo("WRONG_PASSWORD");
    var wrong = api.grab(api.token("gone-x"), phrase, "新年快乐");
    assertThat(wrong.json().getString("outcome")).isEqualTo("WRONG_PASSWORD");
    var right = api.grab(api.token("gone-x"), phrase, "恭喜发财");
    assertThat(right.json().getString("outcome")).isEqualTo("SOLD_OUT");
    assertThat(grab(api, "gone-f", mine).getString("outcome")).isEqualTo("ALREADY_GRABBED");
    assertThat(grab(api, "gone-f", full).getString("outcome")).isEqualTo("LIMIT_REACHED");
    assertThat(grab(api, "gone-x", full).getString("outcome")).isEqualTo("SOLD_OUT");
    drained(parts);
    service.assertReconciled();
  }

  /** A packet in shares of 50 fen (one share when it has a phrase), expiring in five seconds. */
  private static String send(Api api, String sender, JsonObject extra) {
    int count = extra.containsKey("password") ? 1 : 2;
    JsonObject body =
        JsonObject.of("type", extra.containsKey("recipients") ? "EXCLUSIVE" : "FIXED")
            .put("amount", 50 * count)
            .put("count", count)
            .put("expiresInSeconds", 5)
            .mergeIn(extra);
    var response = api.send(api.token(sender), body);
    assertThat(response.status()).as("send %s", response.raw()).isEqualTo(201);
    return response.json().getString("id");
  }

  @Test
  void reusedId_anotherPacketsStateUnderTheId_isHeldNotSold_andReported() {
    start("reused-id", Map.of(), true);
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String sender = "reuse-sender";
    api.topUp(sender, 10_000);
    long last = decode(sendFixed(api, sender, 100, 1, 600));
    // Redis is newer than the ledger: it already holds a packet under the next id.
    Instant now = Instant.now();
    var stale =
        new Packet(
            last + 1,
            "someone-else",
            PacketType.FIXED,
            Amount.fen(777),
            7,
            null,
            null,
            List.of(),
            now.minusSeconds(3600),
            now.plusSeconds(3600));
    parts
        .store()
        .arm(new ArmedPacket(stale, Collections.nCopies(7, Amount.fen(111))), now.minusSeconds(10));

    // ... and a grab of that packet still waiting for its payout.
    Drills.payouts(parts, false);
    xadd(last + 1, last + 1, "stale-grabber", 111, now.minusSeconds(600), stale.createdAt());

    String reused = sendFixed(api, sender, 500, 5, 600);
    assertThat(decode(reused)).isEqualTo(last + 1);

    var grabbed = api.grab(api.token("reuse-grabber"), reused);
    assertThat(grabbed.status()).isEqualTo(503);
    assertThat(grabbed.errorCode()).isEqualTo("UNAVAILABLE");
    Drills.payouts(parts, true);
    drained(parts);
    // The older packet's grab is not paid from this packet's escrow.
    assertThat(paid(parts, reused)).isEmpty();
    assertThat(parts.reconciler().reconcile().discrepancies())
        .hasSize(2)
        .anySatisfy(
            d ->
                assertThat(d)
                    .startsWith("packet " + (last + 1) + ": held, escrow holds 500 fen")
                    .contains("another packet's state"))
        .anySatisfy(
            d ->
                assertThat(d)
                    .startsWith(
                        "packet "
                            + (last + 1)
                            + ": payout of 111 fen to stale-grabber was dead-lettered")
                    .contains("for another packet than the one"));
  }

  /**
   * The ledger, restored from a backup, hands an id out again while Redis keeps a payout task of
   * the older packet under it; the ledger refuses that task as another packet's, and it is
   * dead-lettered. The new packet's keys then age out of Redis with one of its grabs lost (its
   * payout task gone, only the receipt remembers it). That grab's claim is paid: the older packet's
   * dead letter is not owed from this packet's escrow. At expiry the sweeper closes the packet from
   * the ledger and refunds the share nobody grabbed, not shortened by that dead letter. The
   * reconciler names the dead letter alone.
   */
  @Test
  void reusedId_anOlderPacketsDeadLetterUnderTheId_neitherRefusesAClaimNorShortensTheRefund() {
    start("reused-id-close", Map.of("HONGBAO_KEY_GRACE_SECONDS", "1"), false);
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String sender = "reclose-sender";
    api.topUp(sender, 10_000);
    String packet = sendFixed(api, sender, 400, 4, 3);
    long id = decode(packet);
    Instant created = parts.database().packets().find(id).orElseThrow().createdAt();
    Instant olderCreated = created.minus(Duration.ofDays(2));
    xadd(id, id, "reclose-stale", 111, olderCreated.plusSeconds(60), olderCreated);
    String receipt = grab(api, "reclose-lost", packet).getString("receipt");
    assertThat(receipt).isNotNull();
    grab(api, "reclose-a", packet);
    grab(api, "reclose-b", packet);
    List<PayoutTask> tasks = parts.queue().poll("drill", 10, Duration.ofMillis(100));
    assertThat(tasks)
        .extracting(PayoutTask::userId)
        .containsExactlyInAnyOrder("reclose-stale", "reclose-lost", "reclose-a", "reclose-b");
    for (PayoutTask task : tasks) {
      switch (task.userId()) {
        case "reclose-stale" -> {
          var refused =
              catchThrowableOfType(
                  PayoutRefused.class, () -> parts.database().ledger().pay(List.of(task)));
          assertThat(refused).as("another packet's task").isNotNull();
          parts.queue().deadLetter(task, refused.getMessage());
        }
        // Lost with Redis's record of the grab.
        case "reclose-lost" -> parts.queue().ack(List.of(task));
        default -> paidAndAcked(parts, task);
      }
    }
    agedOut(parts, id);

    var claimed = Drills.claim(api, "reclose-lost", packet, receipt);
    assertThat(claimed.json().getString("outcome")).as(claimed.raw()).isEqualTo("PAID");
    assertThat(parts.sweeper().sweepOnce()).isEqualTo(1);

    assertThat(paid(parts, packet)).containsOnlyKeys("reclose-lost", "reclose-a", "reclose-b");
    assertThat(parts.database().packets().refunded(id)).isEqualTo(Amount.fen(100));
    assertThat(parts.database().audit().escrowBalance(id)).isEqualTo(Amount.ZERO);
    assertThat(parts.reconciler().reconcile().discrepancies())
        .singleElement()
        .asString()
        .startsWith("packet " + id + ": payout of 111 fen to reclose-stale was dead-lettered")
        .contains("another packet");
  }

  private void xadd(long streamOf, long packetId, String user, long fen) {
    xadd(streamOf, packetId, user, fen, Instant.now(), null);
  }

  /** A payout task as the grab script writes it; {@code packetCreatedAt} null: as before it did. */
  private void xadd(
      long streamOf,
      long packetId,
      String user,
      long fen,
      Instant grabbedAt,
      Instant packetCreatedAt) {
    RedisClient client = RedisClient.create(redis.url());
    try (var connection = client.connect()) {
      String stream = new RedisKeys(RedisKeys.DEFAULT_SHARDS).payoutsOf(streamOf);
      var fields = new java.util.LinkedHashMap<String, String>();
      fields.put("p", Long.toString(packetId));
      fields.put("u", user);
      fields.put("a", Long.toString(fen));
      fields.put("t", Long.toString(grabbedAt.toEpochMilli()));
      if (packetCreatedAt != null) {
        fields.put("c", Long.toString(packetCreatedAt.toEpochMilli()));
      }
      connection.sync().xadd(stream, fields);
    } finally {
      client.shutdown();
    }
  }

  /** A drill's worker paying one task it polled, and acknowledging it. */
  private static void paidAndAcked(Parts parts, PayoutTask task) {
    assertThat(parts.database().ledger().pay(List.of(task))).isEqualTo(1);
    parts.queue().ack(List.of(task));
  }

  /** Once the packet's keys have aged out of Redis (the drills shorten their grace). */
  private static void agedOut(Parts parts, long id) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> parts.store().state(id).isEmpty());
  }
}
