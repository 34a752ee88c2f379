/* geng's PRUNE hook for the links search (`birdcage links`): skip every graph, and every graph
 * built on it, that cannot have three triangle-free vertices at the end.
 *
 * Why it is safe. On N >= 5 vertices a graph carrying a minimal weak link has at least three
 * triangle-free vertices: both terminals and a pivot (Steane's sieve item 5; the project's
 * `Condition::ThreeTriangleFree`, which the tests check never discards a minimal weak link up
 * to 9 vertices against a search with no sieve). geng builds each graph by adding vertices
 * 0, 1, 2, ... in order, every graph of the sequence an induced subgraph of the later ones,
 * and calls PRUNE(g, n, maxn) on each. A triangle of an induced subgraph is a triangle of the
 * whole graph, so a vertex in a triangle among the first n vertices is in one at the end:
 * the final graph's triangle-free vertices are among the first n vertices' triangle-free ones
 * and the maxn - n vertices still to come. Hence a graph on n vertices with fewer than
 * 3 - (maxn - n) triangle-free vertices has no descendant passing the sieve, and returning 1
 * drops exactly graphs the sieve would drop: the graphs kept, the terminal pairs solved and
 * the links found are the same, only fewer graphs are listed (N = 10: 939,267 instead of
 * 11,716,571).
 *
 * Build (nauty's source, Apache-2.0 since 2.8, and Debian's libnauty2-dev): see build-geng.sh.
 */
#include "gtools.h"

int links_prune(graph *g, int n, int maxn) {
    int need = 3 - (maxn - n), free_of_triangles = 0, v;
    if (maxn < 5 || need <= 0) return 0;
    for (v = 0; v < n; ++v) {
        setword around = g[v], rest = around;
        int in_triangle = 0;
        while (rest) {
            int u = FIRSTBITNZ(rest);
            rest ^= bit[u];
            if (g[u] & around) { in_triangle = 1; break; }
        }
        if (!in_triangle && ++free_of_triangles >= need) return 0;
    }
    return 1;
}
