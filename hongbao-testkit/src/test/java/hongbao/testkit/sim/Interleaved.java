package hongbao.testkit.sim;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A port that runs another party's step once, just before its first call of one method: how the
 * claim tests put a race's other side at the exact point where it hurts, with no threads.
 */
final class Interleaved {

  private Interleaved() {}

  static <T> T before(Class<T> port, T target, String method, Runnable meanwhile) {
    var ran = new AtomicBoolean();
    return port.cast(
        Proxy.newProxyInstance(
            port.getClassLoader(),
            new Class<?>[] {port},
            (proxy, called, args) -> {
              if (called.getName().equals(method) && ran.compareAndSet(false, true)) {
                meanwhile.run();
              }
              try {
                return called.invoke(target, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            }));
  }
}
