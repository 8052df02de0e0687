package hongbao.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.Closing;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.PacketState;
import hongbao.core.grab.Recovered;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.payout.PayoutTask;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What every grab store must do, run against the in-memory store and the Redis scripts alike: a
 * share is handed out once, a user gets one per packet, the checks run in their documented order,
 * arming and closing are idempotent, and every grab leaves exactly one payout task.
 */
public abstract class GrabStoreContract {

  private static final AtomicLong IDS = new AtomicLong(1_000);

  /** The store under test. */
  protected abstract GrabStore store();

  /** The queue the store appends payout tasks to. */
  protected abstract PayoutQueue queue();

  /** A time the store's keys have not aged out at (Redis ages keys out on its own clock). */
  protected abstract Instant start();

  protected long newPacketId() {
    return IDS.incrementAndGet();
  }

  protected String newUser(String name) {
    return name + "-" + IDS.incrementAndGet();
  }

  private Packet packet(long amount, int count) {
    Instant t0 = start();
    return new Packet(
        newPacketId(),
        newUser("sender"),
        PacketType.FIXED,
        Amount.fen(amount),
        count,
        null,
        null,
        List.of(),
        t0,
        t0.plus(Duration.ofMinutes(10)));
  }

  private GrabOutcome grab(Packet packet, String user, Instant at) {
    return store().grab(new GrabAttempt(packet.id(), user, null, at)).toCompletableFuture().join();
  }

  private List<PayoutTask> drain() {
    List<PayoutTask> tasks = queue().poll("contract", 100, Duration.ZERO);
    queue().ack(tasks);
    return tasks;
  }

  @Test
  void grab_handsEachShareOnce_andEachUserOne() {
    Packet packet = packet(300, 2);
    store().arm(new ArmedPacket(packet, List.of(Amount.fen(100), Amount.fen(200))), start());
    String alice = newUser("alice");
    String bob = newUser("bob");
    Instant at = start().plusSeconds(1);
    // Each answer and each task name the packet's creation (to the millisecond, as the store keeps
    // it): the receipt and the ledger tell it from an older packet under the same id.
    Instant created = Instant.ofEpochMilli(packet.createdAt().toEpochMilli());

    assertThat(grab(packet, alice, at))
        .isEqualTo(new GrabOutcome.Grabbed(Amount.fen(100), 1, created, ""));
    assertThat(grab(packet, alice, at)).isEqualTo(new GrabOutcome.AlreadyGrabbed(Amount.fen(100)));
    assertThat(grab(packet, bob, at))
        .isEqualTo(new GrabOutcome.Grabbed(Amount.fen(200), 2, created, ""));
    assertThat(grab(packet, newUser("carol"), at)).isEqualTo(GrabOutcome.SOLD_OUT);

    assertThat(drain())
        .extracting(
            PayoutTask::packetId,
            PayoutTask::userId,
            PayoutTask::amount,
            PayoutTask::packetCreatedAt)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(packet.id(), alice, Amount.fen(100), created),
            org.assertj.core.groups.Tuple.tuple(packet.id(), bob, Amount.fen(200), created));
    PacketState state = store().state(packet.id()).orElseThrow();
    assertThat(state.taken()).isEqualTo(2);
    assertThat(state.takenAmount()).isEqualTo(Amount.fen(300));
    assertThat(state.available()).isEqualTo(Amount.ZERO);
  }

  /**
   * What a packet's waiting and dead-lettered payouts owe its grabbers other than one user: the
   * escrow money a claim paid by the ledger must leave to them.
   */
  @Test
  void owedToOthers_countsTheOtherUsersWaitingAndDeadLetteredPayouts_ofThisPacketOnly() {
    Packet packet = packet(600, 3);
    Packet other = packet(600, 3);
    store()
        .arm(
            new ArmedPacket(packet, List.of(Amount.fen(100), Amount.fen(200), Amount.fen(300))),
            start());
    store()
        .arm(
            new ArmedPacket(other, List.of(Amount.fen(200), Amount.fen(200), Amount.fen(200))),
            start());
    drain();
    String alice = newUser("alice");
    String bob = newUser("bob");
    String carol = newUser("carol");
    Instant at = start().plusSeconds(1);
    grab(packet, alice, at);
    grab(packet, bob, at);
    grab(other, carol, at);

    assertThat(store().owedToOthers(packet.id(), packet.createdAt(), alice))
        .contains(Map.of(bob, Amount.fen(200)));
    assertThat(store().owedToOthers(packet.id(), packet.createdAt(), bob))
        .contains(Map.of(alice, Amount.fen(100)));
    assertThat(store().owedToOthers(packet.id(), packet.createdAt(), carol))
        .contains(Map.of(alice, Amount.fen(100), bob, Amount.fen(200)));

    List<PayoutTask> polled = queue().poll("contract", 100, Duration.ZERO);
    PayoutTask bobs = polled.stream().filter(t -> t.userId().equals(bob)).findFirst().orElseThrow();
    queue().deadLetter(bobs, "refused");
    queue().ack(polled.stream().filter(t -> !t.userId().equals(bob)).toList());

    assertThat(store().owedToOthers(packet.id(), packet.createdAt(), alice))
        .contains(Map.of(bob, Amount.fen(200)));
    assertThat(store().owedToOthers(packet.id(), packet.createdAt(), bob)).contains(Map.of());
    assertThat(store().owedToOthers(other.id(), other.createdAt(), alice)).contains(Map.of());
  }

  /**
   * Tasks of another packet once under the same id (PostgreSQL restored from a backup while Redis
   * kept its queue) are owed nothing from this packet's escrow; a claim whose receipt names no
   * creation counts them, and is refused rather than overpaid.
   */
  @Test
  void owedToOthers_leavesOutTasksOfAnotherCreationUnderTheId_unlessTheClaimNamesNone() {
    Packet packet = packet(600, 3);
    store()
        .arm(
            new ArmedPacket(packet, List.of(Amount.fen(100), Amount.fen(200), Amount.fen(300))),
            start());
    drain();
    String alice = newUser("alice");
    String bob = newUser("bob");
    Instant at = start().plusSeconds(1);
    grab(packet, alice, at);
    grab(packet, bob, at);
    Instant anotherCreation = packet.createdAt().minusSeconds(3600);

    assertThat(store().owedToOthers(packet.id(), packet.createdAt(), alice))
        .contains(Map.of(bob, Amount.fen(200)));
    assertThat(store().owedToOthers(packet.id(), anotherCreation, alice)).contains(Map.of());
    assertThat(store().owedToOthers(packet.id(), null, alice))
        .contains(Map.of(bob, Amount.fen(200)));

    List<PayoutTask> polled = queue().poll("contract", 100, Duration.ZERO);
    PayoutTask bobs = polled.stream().filter(t -> t.userId().equals(bob)).findFirst().orElseThrow();
    queue().deadLetter(bobs, "refused");

    assertThat(store().owedToOthers(packet.id(), anotherCreation, alice)).contains(Map.of());
    assertThat(store().owedToOthers(packet.id(), packet.createdAt(), alice))
        .contains(Map.of(bob, Amount.fen(200)));
    assertThat(store().owedToOthers(packet.id(), null, alice))
        .contains(Map.of(bob, Amount.fen(200)));
  }

  @Test
  void grab_ofUnknownPacket_isNotFound_andAfterExpiry_isExpired() {
    Packet packet = packet(300, 3);
    assertThat(grab(packet, newUser("a"), start())).isEqualTo(GrabOutcome.NOT_FOUND);
    store()
        .arm(
            new ArmedPacket(packet, List.of(Amount.fen(100), Amount.fen(100), Amount.fen(100))),
            start());

    assertThat(grab(packet, newUser("a"), packet.expiresAt())).isEqualTo(GrabOutcome.EXPIRED);
    assertThat(drain()).isEmpty();
  }

  @Test
  void arm_isIdempotent_andRefusedAfterExpiry() {
    Packet packet = packet(300, 3);
    var armed = new ArmedPacket(packet, List.of(Amount.fen(100), Amount.fen(100), Amount.fen(100)));

    assertThat(store().arm(armed, start())).isEqualTo(ArmResult.ARMED);
    assertThat(store().arm(armed, start()))
        .isEqualTo(new ArmResult.Existing(Amount.fen(300), 3, packet.createdAt()));
    Packet late = packet(100, 1);
    assertThat(store().arm(new ArmedPacket(late, List.of(Amount.fen(100))), late.expiresAt()))
        .isEqualTo(ArmResult.TOO_LATE);
  }

  @Test
  void close_returnsTheSameRemainderEveryTime_andStopsGrabs() {
    Packet packet = packet(300, 3);
    store()
        .arm(
            new ArmedPacket(packet, List.of(Amount.fen(50), Amount.fen(100), Amount.fen(150))),
            start());
    grab(packet, newUser("a"), start().plusSeconds(1));

    assertThat(
            store().close(packet.id(), packet.createdAt(), Amount.fen(300), start().plusSeconds(2)))
        .isEqualTo(Closing.NOT_YET);
    Instant after = packet.expiresAt();
    assertThat(store().close(packet.id(), packet.createdAt(), Amount.fen(300), after))
        .isEqualTo(new Closing.Closed(Amount.fen(250)));
    assertThat(
            store().close(packet.id(), packet.createdAt(), Amount.fen(300), after.plusSeconds(5)))
        .isEqualTo(new Closing.Closed(Amount.fen(250)));
    assertThat(grab(packet, newUser("b"), after.plusSeconds(1))).isEqualTo(GrabOutcome.EXPIRED);
    assertThat(store().state(packet.id()).orElseThrow().closedRemainder())
        .isEqualTo(Amount.fen(250));
    drain();
  }

  @Test
  void close_ofMissingPacket_waitsForItsPayouts_thenLeavesATombstone() {
    Packet armed = packet(100, 1);
    store().arm(new ArmedPacket(armed, List.of(Amount.fen(100))), start());
    grab(armed, newUser("a"), start().plusSeconds(1));
    Packet missing = packet(500, 2);

    assertThat(
            store().close(missing.id(), missing.createdAt(), Amount.fen(500), missing.expiresAt()))
        .as("no task of this packet waits")
        .isEqualTo(new Closing.Closed(Amount.fen(500)));
    assertThat(
            store()
                .arm(new ArmedPacket(missing, List.of(Amount.fen(250), Amount.fen(250))), start()))
        .isInstanceOf(ArmResult.Existing.class);
    drain();
  }

  @Test
  void recover_putsALostGrabBack_takingItsAmountOutOfThePool() {
    Packet packet = packet(600, 3);
    store()
        .arm(
            new ArmedPacket(packet, List.of(Amount.fen(100), Amount.fen(200), Amount.fen(300))),
            start());
    String lost = newUser("lost");
    Instant at = start().plusSeconds(1);

    assertThat(
            store()
                .recover(
                    packet.id(),
                    List.of(
                        new GrabRecord(lost, Amount.fen(150), at, 1),
                        new GrabRecord(lost, Amount.fen(150), at, 1)),
                    false))
        .containsExactly(
            new Recovered.Done(Amount.fen(150), 1), new Recovered.AlreadyThere(Amount.fen(150)));
    assertThat(grab(packet, lost, at)).isEqualTo(new GrabOutcome.AlreadyGrabbed(Amount.fen(150)));
    Instant created = Instant.ofEpochMilli(packet.createdAt().toEpochMilli());
    assertThat(grab(packet, newUser("b"), at))
        .isEqualTo(new GrabOutcome.Grabbed(Amount.fen(150), 2, created, ""));
    assertThat(grab(packet, newUser("c"), at))
        .isEqualTo(new GrabOutcome.Grabbed(Amount.fen(300), 3, created, ""));
    assertThat(drain()).as("a restored grab appends no payout task").hasSize(2);
  }

  @Test
  void recover_thatThePoolCannotCover_changesNothing_andAClaimAppendsATask() {
    Packet packet = packet(3, 2);
    store().arm(new ArmedPacket(packet, List.of(Amount.fen(1), Amount.fen(2))), start());
    Instant at = start().plusSeconds(1);

    assertThat(
            store()
                .recover(
                    packet.id(),
                    List.of(new GrabRecord(newUser("a"), Amount.fen(3), at, 1)),
                    false))
        .containsExactly(Recovered.EXHAUSTED);
    String claimant = newUser("claimant");
    assertThat(
            store()
                .recover(
                    packet.id(), List.of(new GrabRecord(claimant, Amount.fen(1), at, 1)), true))
        .containsExactly(new Recovered.Done(Amount.fen(1), 1));
    assertThat(drain()).extracting(PayoutTask::userId).containsExactly(claimant);
    assertThat(
            store()
                .recover(
                    newPacketId(), List.of(new GrabRecord(claimant, Amount.fen(1), at, 1)), false))
        .containsExactly(Recovered.MISSING);
    store().close(packet.id(), packet.createdAt(), Amount.fen(3), packet.expiresAt());
    assertThat(
            store()
                .recover(
                    packet.id(),
                    List.of(new GrabRecord(newUser("late"), Amount.fen(1), at, 2)),
                    false))
        .as("closed with its grabs recorded: its remainder was refunded without this one")
        .containsExactly(Recovered.REFUNDED);
  }
}
