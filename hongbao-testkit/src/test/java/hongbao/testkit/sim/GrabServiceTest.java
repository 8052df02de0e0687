package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabService;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import hongbao.core.password.PasswordCheck;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The grab service decides a grab's path itself, in the contract's order: the switch (read once per
 * grab) before the packet, the fast path for a packet the store has, the slow path on its executor
 * only for one the store lacks. On the simulator's in-memory world: no I/O, a fixed seed.
 */
class GrabServiceTest {

  private final World world = new World(42, LedgerVariant.of("faithful")::create);
  private final CountingSwitches switches = new CountingSwitches(world.switches);
  private final AtomicInteger slowPathTasks = new AtomicInteger();
  private final Executor slowPath =
      task -> {
        slowPathTasks.incrementAndGet();
        task.run();
      };
  private final GrabService grabs =
      new GrabService(
          world.store,
          new PasswordCheck(
              id -> CompletableFuture.completedFuture(Optional.empty()), World.NO_PRONUNCIATION),
          world.packets,
          world.arming,
          World.NO_ACTIVITY_GRABS,
          switches,
          World.NO_RECEIPTS,
          () -> 7,
          world.clock,
          slowPath);

  @Test
  void grab_ofAnArmedPacket_takesTheFastPath_andReadsTheSwitchOnce() {
    long packet = world.aliceSendsFixed(300, 3);

    GrabOutcome outcome = grabs.grab(packet, "bob", null).toCompletableFuture().join();

    assertThat(outcome).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(switches.reads.get()).isEqualTo(1);
    assertThat(slowPathTasks.get()).isZero();
  }

  @Test
  void grab_whenSwitchedOff_refusesEvenAnIdNeverHandedOut() {
    world.switches.set(Switch.GRABBING, false);

    assertThatThrownBy(() -> grabs.grab(-1, "bob", null))
        .isInstanceOfSatisfying(
            RejectedException.class, e -> assertThat(e.rejection()).isEqualTo(Rejection.DISABLED));
    assertThat(switches.reads.get()).isEqualTo(1);
  }

  @Test
  void grab_ofAnIdNeverHandedOut_isNotFound_withoutTheSlowPath() {
    GrabOutcome outcome = grabs.grab(-1, "bob", null).toCompletableFuture().join();

    assertThat(outcome).isEqualTo(GrabOutcome.NOT_FOUND);
    assertThat(slowPathTasks.get()).isZero();
  }

  @Test
  void grab_ofAPacketTheStoreLost_rebuildsItOnTheSlowPath_andGrabs() {
    Object empty = world.store.snapshot();
    long packet = world.aliceSendsFixed(300, 3);
    world.store.restartLosing(empty);

    GrabOutcome outcome = grabs.grab(packet, "bob", null).toCompletableFuture().join();

    assertThat(outcome).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(slowPathTasks.get()).isEqualTo(1);
    assertThat(switches.reads.get()).as("the slow path reads no switch again").isEqualTo(1);
  }

  @Test
  void grab_ofAPacketNobodySent_isNotFound_afterAskingTheLedger() {
    GrabOutcome outcome = grabs.grab(123_456, "bob", null).toCompletableFuture().join();

    assertThat(outcome).isEqualTo(GrabOutcome.NOT_FOUND);
    assertThat(slowPathTasks.get()).isEqualTo(1);
  }

  /** Counts the reads of every switch. */
  private static final class CountingSwitches implements Switches {
    private final Switches inner;
    final AtomicInteger reads = new AtomicInteger();

    CountingSwitches(Switches inner) {
      this.inner = inner;
    }

    @Override
    public boolean enabled(Switch which) {
      reads.incrementAndGet();
      return inner.enabled(which);
    }

    @Override
    public Map<Switch, Boolean> set(Switch which, boolean enabled) {
      return inner.set(which, enabled);
    }

    @Override
    public Map<Switch, Boolean> all() {
      return inner.all();
    }
  }
}
