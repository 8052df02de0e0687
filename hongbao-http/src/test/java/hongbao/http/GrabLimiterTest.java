package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-user grab limit is a greedily refilled bucket, on a clock the test advances. */
class GrabLimiterTest {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final GrabLimiter limiter = new GrabLimiter(10, nanos::get);

  @Test
  void tryGrab_allowsAFullBucketAtOnce_thenRefuses() {
    for (int i = 0; i < 10; i++) {
      assertThat(limiter.tryGrab("alice")).as("grab %s", i + 1).isTrue();
    }
    assertThat(limiter.tryGrab("alice")).isFalse();
    assertThat(limiter.tryGrab("bob")).as("another user's bucket").isTrue();
  }

  @Test
  void tryGrab_refillsOneTokenPerInterval_andNeverBeyondTheBucket() {
    for (int i = 0; i < 10; i++) {
      limiter.tryGrab("alice");
    }
    nanos.addAndGet(99_000_000L);
    assertThat(limiter.tryGrab("alice")).as("before a tenth of a second").isFalse();
    nanos.addAndGet(1_000_000L);
    assertThat(limiter.tryGrab("alice")).as("one token back").isTrue();
    assertThat(limiter.tryGrab("alice")).isFalse();

    nanos.addAndGet(60_000_000_000L);
    int allowed = 0;
    for (int i = 0; i < 20; i++) {
      allowed += limiter.tryGrab("alice") ? 1 : 0;
    }
    assertThat(allowed).as("a minute idle refills one bucket, no more").isEqualTo(10);
  }

  @Test
  void tryGrab_atAFixedRate_isNeverRefused() {
    for (int i = 0; i < 1_000; i++) {
      assertThat(limiter.tryGrab("alice")).as("grab %s", i + 1).isTrue();
      nanos.addAndGet(100_000_000L);
    }
  }

  @Test
  void rateBelowTheContractsFloor_isRejected() {
    assertThatThrownBy(() -> new GrabLimiter(9)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void tryGrab_ofManyUsers_givesEachAFullBucket() {
    for (int user = 0; user < 100_000; user++) {
      assertThat(limiter.tryGrab("user-" + user)).as("user %s", user).isTrue();
    }
  }

  @Test
  void tryGrab_ofAUserWhoseSlotAnotherTook_startsAFullBucket_andNeverRefusesMore() {
    Map<Integer, String> firstInSlot = new HashMap<>();
    String alice = null;
    String bob = null;
    for (int user = 0; alice == null; user++) {
      String id = "user-" + user;
      String other = firstInSlot.putIfAbsent(slot(id), id);
      if (other != null) {
        alice = other;
        bob = id;
      }
    }
    for (int i = 0; i < 10; i++) {
      limiter.tryGrab(alice);
    }
    assertThat(limiter.tryGrab(alice)).as("alice's bucket is empty").isFalse();

    assertThat(limiter.tryGrab(bob)).as("bob, in alice's slot, has a full bucket").isTrue();
    int allowed = 0;
    for (int i = 0; i < 10; i++) {
      allowed += limiter.tryGrab(alice) ? 1 : 0;
    }
    assertThat(allowed).as("alice, back in the slot bob took, is forgiven").isEqualTo(10);
  }

  @Test
  void tryGrab_racingOnOneUser_allowsExactlyOneBucket() throws Exception {
    // A bucket of 10,000 at a frozen instant: the threads overlap for thousands of grabs each, so
    // an update lost between two of them would show as more than one bucket allowed.
    var large = new GrabLimiter(10_000, nanos::get);
    int threads = 4;
    int rounds = 200;
    var barrier = new CyclicBarrier(threads);
    var allowed = new AtomicIntegerArray(rounds);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int round = 0; round < rounds; round++) {
                    String user = "racer-" + round;
                    barrier.await();
                    int mine = 0;
                    for (int i = 0; i < 5_000; i++) {
                      mine += large.tryGrab(user) ? 1 : 0;
                    }
                    allowed.addAndGet(round, mine);
                  }
                  return null;
                }));
      }
      for (Future<?> each : done) {
        each.get();
      }
      for (int round = 0; round < rounds; round++) {
        assertThat(allowed.get(round)).as("grabs allowed in round %s", round).isEqualTo(10_000);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static int slot(String userId) {
    return (int) GrabLimiter.key(userId) & (GrabLimiter.BUCKETS - 1);
  }
}
