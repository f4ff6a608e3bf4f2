fn main() {
    println!("nnue-gen-sfen");
}
