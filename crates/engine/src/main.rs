fn main() {
    println!("nnue engine");
}
