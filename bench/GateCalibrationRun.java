import dev.wg1bench.api.Comparison;
import dev.wg1bench.api.Wg1bench;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One long real comparison for bench/gate-calibration.sh: BLOCKS randomized complete blocks of a
 * baseline and a treatment through {@code Wg1bench.compare}, each trial 1 s measured after 0.5 s of
 * warmup, in the order the tool draws (pairs of blocks, the second of a pair reversed). Its JSON
 * holds every trial (tps, failed ops, retries) and every block's ratio; GateCalibration.java then
 * builds many short comparisons and histories out of these real blocks.
 *
 * <pre>java -cp target/wg1bench.jar bench/GateCalibrationRun.java URL KIND BLOCKS OUT.json</pre>
 *
 * KIND: "aa-select" (the same point select as both arms, on pgbench tables of scale 1 that the
 * baseline's initPgbench(1) makes), "aa-select-both" (the same, both arms with initPgbench(1)), or
 * "sleep:B:T" (an op of SELECT pg_sleep(B seconds) against one of pg_sleep(T seconds): a slowdown
 * planted on the server, whose realised size the blocks measure).
 */
public final class GateCalibrationRun {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String kind = args[1];
    int blocks = Integer.parseInt(args[2]);
    Wg1bench base;
    Wg1bench treat;
    if (kind.startsWith("aa-select")) {
      String select =
          "\\set aid random(1, 100000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";
      base = trial(Wg1bench.script("select", select)).initPgbench(1);
      treat = trial(Wg1bench.script("select", select));
      // aa-select-both: the treatment is described exactly as the baseline, initPgbench included
      treat = kind.equals("aa-select-both") ? treat.initPgbench(1) : treat;
    } else {
      String[] s = kind.split(":");
      base = trial(Wg1bench.script("sleep-base", "SELECT pg_sleep(" + s[1] + ");\n"));
      treat = trial(Wg1bench.script("sleep-treat", "SELECT pg_sleep(" + s[2] + ");\n"));
    }
    base = base.against(url, "postgres", "");
    treat = treat.against(url, "postgres", "");
    Comparison c = Wg1bench.compare(base, treat).blocks(blocks).seed(20261128L).run();
    c.writeJson(Path.of(args[3]));
    System.out.println(c.table());
  }

  private static Wg1bench trial(Wg1bench w) {
    return w.clients(2)
        .warmup(Duration.ofMillis(500))
        .duration(Duration.ofSeconds(1))
        .iterations(1)
        .console(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
  }
}
