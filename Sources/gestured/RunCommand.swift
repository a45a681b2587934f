#if canImport(Glibc)
import Glibc
#endif

func runMain(_ arguments: [String]) -> Int32 {
    eprint("gestured run: not implemented yet")
    return 1
}
